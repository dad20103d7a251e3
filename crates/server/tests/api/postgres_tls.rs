//! TLS to PostgreSQL as libpq users write it, against a TLS-only throwaway cluster with a CA
//! of its own: `sslmode` up to `verify-full`, `sslrootcert`, a client certificate
//! (`sslcert`/`sslkey`) for a server that demands one, and settings that are not supported
//! refused by name. The CA and the certificates are made here with the `openssl` program
//! (which `.ci/run` installs when missing).

use std::path::{Path, PathBuf};
use std::process::Command;

use diagtui_store::{Location, PgOptions, Store, StoreOptions};

use diagtui_testkit::postgres::{Cluster, TEST_SETTINGS, run};

/// Runs `openssl` in `dir`; it must succeed.
fn openssl(dir: &Path, args: &[&str]) {
    let mut command = Command::new("openssl");
    command.args(args).current_dir(dir);
    run(command, "openssl (.ci/run installs it when missing)");
}

/// A new P-256 key in `name.key` and a certificate request for `subject` in `name.csr`.
fn key_and_request(dir: &Path, name: &str, subject: &str) {
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.csr"),
            "-subj",
            subject,
        ],
    );
}

/// A certificate `name.crt` (and its key `name.key`) for `subject` with the extensions in
/// `name.ext`, issued by the CA `issuer` (`None`: self-signed).
fn certificate(dir: &Path, name: &str, subject: &str, issuer: Option<&str>, extensions: &str) {
    let ext = format!("{name}.ext");
    std::fs::write(dir.join(&ext), extensions).unwrap();
    key_and_request(dir, name, subject);
    let (csr, crt, key) = (
        format!("{name}.csr"),
        format!("{name}.crt"),
        format!("{name}.key"),
    );
    let mut args = vec!["x509", "-req", "-in", &csr, "-out", &crt, "-days", "2"];
    args.extend(["-extfile", &ext]);
    let (issuer_crt, issuer_key);
    match issuer {
        None => args.extend(["-key", &key]),
        Some(issuer) => {
            (issuer_crt, issuer_key) = (format!("{issuer}.crt"), format!("{issuer}.key"));
            args.extend(["-CA", &issuer_crt, "-CAkey", &issuer_key, "-CAcreateserial"]);
        }
    }
    openssl(dir, &args);
}

/// Makes a file the server's own (PostgreSQL refuses a key file it does not own).
#[allow(unsafe_code, reason = "FFI: geteuid")]
fn give_to_postgres(path: &Path) {
    // SAFETY: `geteuid` takes nothing and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        let mut chown = Command::new("chown");
        chown.arg("postgres").arg(path);
        run(chown, "chown");
    }
}

/// A TLS-only cluster whose server certificate (for 127.0.0.1) a CA of its own issued;
/// database `certdb` admits only a client certificate issued by that CA. Also returns the
/// directory of the certificates: `ca.crt`, `other.crt` (another CA), `client.crt`/`.key`.
fn tls_cluster() -> (Cluster, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("diagtui-tls-")
        .tempdir()
        .unwrap()
        .keep();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let ca = "basicConstraints=critical,CA:TRUE\n";
    certificate(&dir, "ca", "/CN=diagtui test CA", None, ca);
    certificate(&dir, "other", "/CN=another CA", None, ca);
    let server = "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n";
    certificate(&dir, "server", "/CN=127.0.0.1", Some("ca"), server);
    let client = "basicConstraints=CA:FALSE\n";
    certificate(&dir, "client", "/CN=postgres", Some("ca"), client);
    let hba = dir.join("pg_hba.conf");
    std::fs::write(
        &hba,
        "hostssl certdb all 127.0.0.1/32 cert\nhostssl all all 127.0.0.1/32 trust\n",
    )
    .unwrap();
    for file in ["server.key", "server.crt", "ca.crt", "pg_hba.conf"] {
        give_to_postgres(&dir.join(file));
    }
    let settings = format!(
        "{TEST_SETTINGS} -c ssl=on -c ssl_cert_file={0}/server.crt -c ssl_key_file={0}/server.key \
         -c ssl_ca_file={0}/ca.crt -c hba_file={0}/pg_hba.conf",
        dir.display()
    );
    let cluster = Cluster::start_with(settings).expect("PostgreSQL is installed");
    cluster.psql("postgres", "CREATE DATABASE certdb");
    (cluster, dir)
}

/// Opens a store on the database at `url`: the error's text if it fails.
async fn open(url: String) -> Result<(), String> {
    let at = Location::Postgres(PgOptions { url, pool_size: 2 });
    match Store::open_at(&at, StoreOptions::default()).await {
        Ok(_) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn tls_settings_as_libpq_users_write_them() {
    let (cluster, dir) = tls_cluster();
    let certs = dir.display();
    let at = |host: &str, database: &str, settings: &str| {
        format!(
            "postgres://postgres@{host}:{}/{database}?{settings}",
            cluster.port
        )
    };
    let postgres = |settings: &str| at("127.0.0.1", "postgres", settings);

    let plain = open(postgres("sslmode=disable")).await;
    assert!(plain.is_err(), "the cluster takes TLS only");
    for settings in [
        "sslmode=require".to_owned(),
        format!("sslmode=require&sslrootcert={certs}/ca.crt"),
        format!("sslmode=verify-ca&sslrootcert={certs}/ca.crt"),
        format!("sslmode=verify-full&sslrootcert={certs}/ca.crt"),
    ] {
        open(postgres(&settings))
            .await
            .unwrap_or_else(|e| panic!("{settings}: {e}"));
    }
    // The certificate is for 127.0.0.1, not `localhost`: only verify-full checks the name.
    let by_name = |mode: &str| {
        at(
            "localhost",
            "postgres",
            &format!("sslmode={mode}&sslrootcert={certs}/ca.crt"),
        )
    };
    open(by_name("verify-ca"))
        .await
        .expect("verify-ca does not check the host");
    let wrong_host = open(by_name("verify-full")).await.unwrap_err();
    assert!(wrong_host.contains("certificate"), "{wrong_host}");
    assert!(wrong_host.contains("not valid for name"), "{wrong_host}");
    for mode in ["verify-ca", "verify-full", "require"] {
        let settings = format!("sslmode={mode}&sslrootcert={certs}/other.crt");
        let wrong_ca = open(postgres(&settings)).await.unwrap_err();
        assert!(wrong_ca.contains("UnknownIssuer"), "{settings}: {wrong_ca}");
    }

    // `certdb` demands a client certificate.
    let certdb = |settings: &str| at("127.0.0.1", "certdb", settings);
    let verified = format!("sslmode=verify-full&sslrootcert={certs}/ca.crt");
    let without = open(certdb(&verified)).await.unwrap_err();
    assert!(without.contains("client certificate"), "{without}");
    let with = format!(
        "sslmode=verify-full&sslrootcert={certs}/ca.crt&sslcert={certs}/client.crt\
         &sslkey={certs}/client.key"
    );
    open(certdb(&with)).await.expect("admitted with one");

    let unknown = open(postgres("sslmode=require&sslcrl=x.crl"))
        .await
        .unwrap_err();
    assert!(unknown.contains("`sslcrl` is not supported"), "{unknown}");
    let missing = open(postgres(
        "sslmode=verify-full&sslrootcert=/nonexistent/ca.crt",
    ))
    .await
    .unwrap_err();
    assert!(missing.contains("sslrootcert"), "{missing}");
    cluster.stop_server();
    let _ = std::fs::remove_dir_all(&dir);
}
