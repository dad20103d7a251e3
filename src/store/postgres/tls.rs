//! TLS to the database per the URL's `sslmode`, as libpq reads it: `disable` never encrypts;
//! `prefer` (the default) and `require` encrypt (`prefer` only when the server offers it)
//! without checking the server's certificate; `verify-ca` and `verify-full` encrypt and check
//! the certificate and the host name against the system's trust store (both as strictly as
//! libpq's `verify-full`).

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use rustls_platform_verifier::BuilderVerifierExt;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::{StoreError, StoreResult};

/// A database URL read, with what its `sslmode` asks of certificates.
pub struct Target {
    /// The connection settings.
    pub config: tokio_postgres::Config,
    /// Whether the server's certificate must be checked.
    pub verify: bool,
}

/// Reads a `postgres://` URL (or `key=value` settings). `sslmode=verify-ca|verify-full`, which
/// tokio-postgres does not read, become `require` with a checked certificate.
pub fn parse(url: &str) -> StoreResult<Target> {
    let mut verify = false;
    let mut text = url.to_owned();
    for mode in ["sslmode=verify-full", "sslmode=verify-ca"] {
        if text.contains(mode) {
            text = text.replace(mode, "sslmode=require");
            verify = true;
        }
    }
    let config = text.parse::<tokio_postgres::Config>().map_err(|e| {
        StoreError::Internal(format!(
            "the database URL is not valid ({e}); expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ))
    })?;
    Ok(Target { config, verify })
}

/// The TLS connector for a target.
pub fn connector(verify: bool) -> StoreResult<MakeRustlsConnect> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Internal(format!("TLS: {e}")))?;
    let config = if verify {
        builder
            .with_platform_verifier()
            .map_err(|e| StoreError::Internal(format!("TLS: {e}")))?
            .with_no_client_auth()
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
            .with_no_client_auth()
    };
    Ok(MakeRustlsConnect::new(config))
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
