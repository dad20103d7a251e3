//! TLS to the database per the URL's TLS settings, as libpq reads them:
//!
//! - `sslmode`: `disable` never encrypts; `prefer` (the default) and `require` encrypt
//!   (`prefer` only when the server offers it) without checking the server's certificate,
//!   except that `require` with an `sslrootcert` checks it as `verify-ca` does; `verify-ca`
//!   checks that a trusted CA issued the certificate; `verify-full` also checks that it names
//!   the host.
//! - `sslrootcert`: the CA certificates (a PEM file) trusted by `verify-ca`/`verify-full`;
//!   `system`, or none given, trusts the system's store.
//! - `sslcert` and `sslkey` (PEM files, given together): the client certificate and its key,
//!   for a server that asks for one.
//!
//! Any other setting is passed on to tokio-postgres when it knows it; one it does not is
//! refused by name, rather than as an invalid URL.

use std::path::PathBuf;
use std::sync::Arc;

use percent_encoding::percent_decode_str;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use rustls_platform_verifier::Verifier;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::error::{StoreError, StoreResult};

/// The settings tokio-postgres reads itself, passed on as given.
const PASSED_ON: &[&str] = &[
    "user",
    "password",
    "dbname",
    "options",
    "application_name",
    "sslnegotiation",
    "host",
    "hostaddr",
    "port",
    "connect_timeout",
    "tcp_user_timeout",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_retries",
    "target_session_attrs",
    "channel_binding",
    "load_balance_hosts",
];

/// How much of the server's certificate is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Nothing (`prefer`, `require`).
    Nothing,
    /// That a trusted CA issued it (`verify-ca`).
    Issuer,
    /// That a trusted CA issued it for the host (`verify-full`).
    IssuerAndHost,
}

/// What TLS to the database must do.
#[derive(Debug, Clone)]
pub struct TlsSettings {
    check: Check,
    /// The trusted CAs' file (`sslrootcert`); `None`: the system's.
    roots: Option<PathBuf>,
    /// The client certificate's and key's files (`sslcert`, `sslkey`).
    client: Option<(PathBuf, PathBuf)>,
}

/// A database URL read, with its TLS settings.
pub struct Target {
    /// The connection settings.
    pub config: tokio_postgres::Config,
    /// What TLS must do.
    pub tls: TlsSettings,
}

/// The TLS settings taken out of a URL; what is left is for tokio-postgres.
#[derive(Default)]
struct Taken {
    sslmode: Option<String>,
    sslrootcert: Option<String>,
    sslcert: Option<String>,
    sslkey: Option<String>,
}

impl Taken {
    /// Takes a setting if it is a TLS one; refuses one that nobody reads.
    fn take(&mut self, key: &str, value: String) -> StoreResult<bool> {
        let slot = match key {
            "sslmode" => &mut self.sslmode,
            "sslrootcert" => &mut self.sslrootcert,
            "sslcert" => &mut self.sslcert,
            "sslkey" => &mut self.sslkey,
            known if PASSED_ON.contains(&known) => return Ok(false),
            unknown => {
                return Err(invalid(format!(
                    "its setting `{unknown}` is not supported; supported: sslmode, sslrootcert, \
                     sslcert, sslkey, {}",
                    PASSED_ON.join(", ")
                )));
            }
        };
        *slot = Some(value);
        Ok(true)
    }

    /// The TLS settings, and the `sslmode` tokio-postgres is to use.
    fn settings(self) -> StoreResult<(TlsSettings, Option<&'static str>)> {
        let roots = match self.sslrootcert.as_deref() {
            None | Some("system") => None,
            Some(path) => Some(PathBuf::from(path)),
        };
        let (mode, check) = match self.sslmode.as_deref() {
            None => (None, Check::Nothing),
            Some("disable") => (Some("disable"), Check::Nothing),
            Some("allow" | "prefer") => (Some("prefer"), Check::Nothing),
            // As libpq: `require` with a CA file checks the issuer.
            Some("require") if roots.is_some() => (Some("require"), Check::Issuer),
            Some("require") => (Some("require"), Check::Nothing),
            Some("verify-ca") => (Some("require"), Check::Issuer),
            Some("verify-full") => (Some("require"), Check::IssuerAndHost),
            Some(other) => {
                return Err(invalid(format!(
                    "its sslmode `{other}` is not one of disable, allow, prefer, require, \
                     verify-ca, verify-full"
                )));
            }
        };
        let client = match (self.sslcert, self.sslkey) {
            (None, None) => None,
            (Some(cert), Some(key)) => Some((PathBuf::from(cert), PathBuf::from(key))),
            _ => return Err(invalid("sslcert and sslkey go together".into())),
        };
        Ok((
            TlsSettings {
                check,
                roots,
                client,
            },
            mode,
        ))
    }
}

/// The error for a URL that cannot be used, saying why.
fn invalid(why: String) -> StoreError {
    StoreError::Internal(format!(
        "the database URL is not valid: {why}; expected \
         postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=...]"
    ))
}

/// Reads a `postgres://` URL (or `key=value` settings), taking out the TLS settings that
/// tokio-postgres does not read.
pub fn parse(url: &str) -> StoreResult<Target> {
    let mut taken = Taken::default();
    let (rest, separator, settings): (&str, &str, Vec<&str>) =
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            match url.split_once('?') {
                Some((base, query)) => (base, "&", query.split('&').collect()),
                None => (url, "&", Vec::new()),
            }
        } else {
            ("", " ", url.split_whitespace().collect())
        };
    let url_form = separator == "&";
    let mut kept = Vec::new();
    for setting in settings {
        let Some((key, value)) = setting.split_once('=') else {
            // A word of a quoted `key='...'` value: tokio-postgres reads it.
            kept.push(setting.to_owned());
            continue;
        };
        let value = if url_form {
            percent_decode_str(value).decode_utf8_lossy().into_owned()
        } else {
            value.trim_matches('\'').to_owned()
        };
        if !taken.take(key, value)? {
            kept.push(setting.to_owned());
        }
    }
    let (tls, mode) = taken.settings()?;
    if let Some(mode) = mode {
        kept.push(format!("sslmode={mode}"));
    }
    let text = match (url_form, kept.is_empty()) {
        (true, true) => rest.to_owned(),
        (true, false) => format!("{rest}?{}", kept.join("&")),
        (false, _) => kept.join(" "),
    };
    let config = text
        .parse::<tokio_postgres::Config>()
        .map_err(|e| invalid(e.to_string()))?;
    Ok(Target { config, tls })
}

/// The TLS connector for these settings; reads the certificate files they name.
pub fn connector(settings: &TlsSettings) -> StoreResult<MakeRustlsConnect> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Internal(format!("TLS: {e}")))?;
    let verifier = server_verifier(settings, &provider)?;
    let builder = builder
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let config = match &settings.client {
        None => builder.with_no_client_auth(),
        Some((cert, key)) => {
            let chain = CertificateDer::pem_file_iter(cert)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| file_error("sslcert", cert, e))?;
            let key_der =
                PrivateKeyDer::from_pem_file(key).map_err(|e| file_error("sslkey", key, e))?;
            builder
                .with_client_auth_cert(chain, key_der)
                .map_err(|e| StoreError::Internal(format!("TLS: the client certificate: {e}")))?
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// What checks the server's certificate.
fn server_verifier(
    settings: &TlsSettings,
    provider: &Arc<CryptoProvider>,
) -> StoreResult<Arc<dyn ServerCertVerifier>> {
    if settings.check == Check::Nothing {
        return Ok(Arc::new(AnyCertificate(Arc::clone(provider))));
    }
    let full: Arc<dyn ServerCertVerifier> = match &settings.roots {
        None => Arc::new(
            Verifier::new(Arc::clone(provider))
                .map_err(|e| StoreError::Internal(format!("TLS: the system's CAs: {e}")))?,
        ),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| file_error("sslrootcert", path, e))?;
            let (added, _) = roots.add_parsable_certificates(certs);
            if added == 0 {
                return Err(file_error("sslrootcert", path, "no certificate in it"));
            }
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::clone(provider))
                .build()
                .map_err(|e| StoreError::Internal(format!("TLS: {e}")))?
        }
    };
    Ok(match settings.check {
        Check::Issuer => Arc::new(AnyName(full)),
        _ => full,
    })
}

/// The error for a certificate file that cannot be used.
fn file_error(setting: &str, path: &std::path::Path, e: impl std::fmt::Display) -> StoreError {
    StoreError::Internal(format!(
        "TLS: the {setting} file {} cannot be used: {e}",
        path.display()
    ))
}

/// Checks the issuer as `inner` does, but not the host name (libpq's `verify-ca`).
#[derive(Debug)]
struct AnyName(Arc<dyn ServerCertVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let checked =
            self.0
                .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now);
        match checked {
            // The chain is checked before the name: only the name is wrong.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// Accepts the server's certificate unchecked (libpq's `require`), still checking that the
/// handshake is signed by it.
#[derive(Debug)]
struct AnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(url: &str) -> String {
        match parse(url) {
            Ok(_) => panic!("{url} was taken"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn libpq_tls_settings_are_read_and_the_rest_passed_on() {
        let target =
            parse("postgres://u:p@db:6432/d?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.crt&application_name=x")
                .unwrap();
        assert_eq!(target.tls.check, Check::IssuerAndHost);
        assert_eq!(target.tls.roots, Some(PathBuf::from("/etc/ca.crt")));
        assert_eq!(
            target.config.get_ssl_mode(),
            tokio_postgres::config::SslMode::Require
        );
        assert_eq!(target.config.get_application_name(), Some("x"));
        assert_eq!(target.config.get_ports(), [6432]);
        let with_ca = parse("host=db sslmode=require sslrootcert=ca.crt user=u").unwrap();
        assert_eq!(
            with_ca.tls.check,
            Check::Issuer,
            "require with a CA file, as libpq"
        );
        assert_eq!(with_ca.config.get_user(), Some("u"));
        let system = parse("postgres://db/d?sslmode=verify-ca&sslrootcert=system").unwrap();
        assert_eq!((system.tls.check, system.tls.roots), (Check::Issuer, None));
        let client = parse("postgres://db/d?sslcert=c.crt&sslkey=c.key").unwrap();
        assert_eq!(client.tls.client, Some(("c.crt".into(), "c.key".into())));
        assert_eq!(parse("postgres://db/d").unwrap().tls.check, Check::Nothing);
    }

    #[test]
    fn settings_that_are_not_supported_are_named() {
        assert!(error("postgres://db/d?sslcrl=x").contains("`sslcrl` is not supported"));
        assert!(error("host=db gssencmode=disable").contains("`gssencmode` is not supported"));
        assert!(error("postgres://db/d?sslmode=sometimes").contains("`sometimes`"));
        assert!(error("postgres://db/d?sslcert=c.crt").contains("go together"));
    }
}
