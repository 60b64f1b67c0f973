//! Checking an access token: the issuer's metadata (RFC 8414, or OpenID
//! discovery) read once at the start; a JWT (RFC 9068) checked against the
//! issuer's keys (JWKS, kept and fetched again for a key it does not know,
//! at most once per cooldown), its issuer, audience (the server's resource,
//! RFC 8707), expiry and start; an opaque token asked of the issuer's
//! introspection endpoint (RFC 7662) when one is configured. Signatures and
//! keys are jsonwebtoken's; nothing of the cryptography is done here.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use base64::Engine as _;
use jsonwebtoken::jwk::{Jwk, JwkSet, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;

/// Clocks may differ by this much.
const LEEWAY: u64 = 30;
/// A key set is fetched again after this long.
const KEYS_TTL: Duration = Duration::from_secs(3600);
/// An unknown key fetches the key set again at most this often.
const REFETCH_COOLDOWN: Duration = Duration::from_secs(30);
/// An introspection answer is kept this long at most.
const INTROSPECTION_TTL: Duration = Duration::from_secs(60);
/// The most bytes read of the issuer's answers.
const MAX_ANSWER: u64 = 1024 * 1024;
/// How long a request to the issuer may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The signature algorithms a token may use: asymmetric only (a shared
/// secret has no place in a public key set).
const ALGORITHMS: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Why a token is not taken: it is not valid (`401`), or the issuer could
/// not be asked (`503`: the token may well be valid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    Invalid(String),
    Unavailable(String),
}

/// The most introspection answers kept at once.
const MAX_INTROSPECTED: usize = 10_000;

/// Who a valid token speaks for, and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Holder {
    /// `iss` and `sub` (or the client, for a token of a client's own).
    pub(crate) subject: String,
    /// The scopes granted.
    pub(crate) scopes: Vec<String>,
}

/// Credentials of this server at the issuer, for introspection.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    pub(crate) id: String,
    pub(crate) secret: String,
}

/// Checks tokens of one issuer for one resource.
pub(crate) struct Verifier {
    issuer: String,
    resource: String,
    jwks_uri: String,
    introspection: Option<(String, Client)>,
    agent: ureq::Agent,
    keys: tokio::sync::RwLock<Keys>,
    /// Held while the key set is fetched again (one fetch at a time).
    refetch: tokio::sync::Mutex<Option<Instant>>,
    /// Introspection answers, by the token's digest, until they expire.
    introspected: std::sync::Mutex<HashMap<String, Introspected>>,
}

/// An introspection answer kept: until when, and what it made of the token.
type Introspected = (Instant, Result<Holder, String>);

struct Keys {
    set: JwkSet,
    fetched: Instant,
}

/// Issuer metadata, as far as it is read.
#[derive(Debug)]
pub(crate) struct Metadata {
    pub(crate) issuer: String,
    pub(crate) jwks_uri: String,
    pub(crate) introspection_endpoint: Option<String>,
}

impl Verifier {
    /// Reads the issuer's metadata and keys (blocking; at the start).
    pub(crate) fn start(
        issuer: &str,
        resource: &str,
        client: Option<Client>,
    ) -> Result<Self, String> {
        // Whatever else in the program picked a backend, this one checks.
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(FETCH_TIMEOUT))
            .http_status_as_error(false)
            // Where the keys come from is what the metadata says, not
            // wherever a redirect leads.
            .max_redirects(0)
            .build()
            .into();
        fetchable(issuer)?;
        let metadata = discover(&agent, issuer)?;
        fetchable(&metadata.jwks_uri)?;
        if let Some(endpoint) = &metadata.introspection_endpoint {
            fetchable(endpoint)?;
        }
        let introspection = match (client, metadata.introspection_endpoint) {
            (Some(client), Some(endpoint)) => Some((endpoint, client)),
            (Some(_), None) => {
                return Err(format!(
                    "the issuer {issuer} names no introspection_endpoint in its metadata, \
                     and an introspection client was given"
                ))
            }
            (None, _) => None,
        };
        let set = fetch_keys(&agent, &metadata.jwks_uri)?;
        Ok(Self {
            // As the issuer names itself: what its tokens' `iss` is.
            issuer: metadata.issuer,
            resource: resource.to_owned(),
            jwks_uri: metadata.jwks_uri,
            introspection,
            agent,
            keys: tokio::sync::RwLock::new(Keys {
                set,
                fetched: Instant::now(),
            }),
            refetch: tokio::sync::Mutex::new(None),
            introspected: std::sync::Mutex::default(),
        })
    }

    /// The issuer, as it names itself.
    pub(crate) fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Who `token` speaks for, or why it is refused (the text of
    /// `error_description`).
    pub(crate) async fn verify(&self, token: &str) -> Result<Holder, Refusal> {
        match jsonwebtoken::decode_header(token) {
            Ok(header) => self.verify_jwt(token, &header).await,
            Err(_) if self.introspection.is_some() && token.split('.').count() != 3 => {
                self.introspect(token).await
            }
            Err(error) => Err(Refusal::Invalid(match self.introspection {
                Some(_) => format!("the token is not a readable JWT: {error}"),
                None => format!(
                    "the token is not a readable JWT ({error}), and this server introspects no \
                     opaque tokens"
                ),
            })),
        }
    }

    async fn verify_jwt(
        &self,
        token: &str,
        header: &jsonwebtoken::Header,
    ) -> Result<Holder, Refusal> {
        let invalid = Refusal::Invalid;
        if !ALGORITHMS.contains(&header.alg) {
            let alg = header.alg;
            return Err(invalid(format!(
                "the token's algorithm {alg:?} is not accepted"
            )));
        }
        // RFC 9068 asks for `at+jwt`; several providers send `JWT`.
        if let Some(typ) = &header.typ {
            let typ = typ.to_ascii_lowercase();
            if !matches!(typ.as_str(), "at+jwt" | "application/at+jwt" | "jwt") {
                return Err(invalid(format!(
                    "the token's type {typ:?} is not an access token's"
                )));
            }
        }
        let jwk = self.key(header).await?;
        check_key_fits(&jwk, header.alg).map_err(invalid)?;
        let key = DecodingKey::from_jwk(&jwk)
            .map_err(|error| invalid(format!("the issuer's key: {error}")))?;
        let mut validation = Validation::new(header.alg);
        validation.leeway = LEEWAY;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let claims =
            jsonwebtoken::decode::<serde_json::Map<String, Value>>(token, &key, &validation)
                .map_err(|error| invalid(self.refusal(&error)))?
                .claims;
        holder(&self.issuer, &claims).map_err(invalid)
    }

    /// Why a JWT is refused, in words.
    fn refusal(&self, error: &jsonwebtoken::errors::Error) -> String {
        use jsonwebtoken::errors::ErrorKind;
        match error.kind() {
            ErrorKind::ExpiredSignature => "the token has expired".to_owned(),
            ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".to_owned(),
            ErrorKind::InvalidAudience => {
                format!(
                    "the token is not for this resource (aud must be {})",
                    self.resource
                )
            }
            ErrorKind::InvalidIssuer => {
                format!("the token was not issued by {} (iss)", self.issuer)
            }
            ErrorKind::InvalidSignature => "the token's signature does not verify".to_owned(),
            ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
            ErrorKind::InvalidAlgorithm => {
                "the token's algorithm does not match its key".to_owned()
            }
            _ => format!("the token is not valid: {error}"),
        }
    }

    /// The issuer's key that signed a token: by its `kid`, or the one key
    /// there is when the token names none. The key set is fetched again
    /// for a key it lacks, or when it is an hour old, at most once per
    /// cooldown and one fetch at a time; a failed fetch keeps the last
    /// set. A key not found is an invalid token, unless the issuer could
    /// not be reached to look for it.
    async fn key(&self, header: &jsonwebtoken::Header) -> Result<Jwk, Refusal> {
        let (found, stale) = self.known_key(header).await;
        if let (Some(jwk), false) = (&found, stale) {
            return Ok(jwk.clone());
        }
        let mut unreachable = None;
        {
            let mut last = self.refetch.lock().await;
            // Another call may have fetched it meanwhile.
            let (again, stale) = self.known_key(header).await;
            let cooling = last.is_some_and(|at| at.elapsed() < REFETCH_COOLDOWN);
            match again {
                Some(jwk) if !stale || cooling => return Ok(jwk),
                None if cooling => {}
                _ => {
                    *last = Some(Instant::now());
                    if let Err(error) = self.fetch_again().await {
                        tracing::warn!(%error, "the issuer's keys could not be fetched again");
                        unreachable = Some(error);
                    }
                }
            }
        }
        match (self.known_key(header).await.0, unreachable) {
            (Some(jwk), _) => Ok(jwk),
            (None, Some(error)) => Err(Refusal::Unavailable(format!(
                "the issuer's keys cannot be fetched: {error}"
            ))),
            (None, None) => Err(Refusal::Invalid(match &header.kid {
                Some(kid) => format!("the token's key {kid:?} is not one of the issuer's"),
                None => "the token names no key (kid), and the issuer has several".to_owned(),
            })),
        }
    }

    /// Fetches the key set again; kept only when it reads.
    async fn fetch_again(&self) -> Result<(), String> {
        let (agent, uri) = (self.agent.clone(), self.jwks_uri.clone());
        let set = crate::spawn::spawn_blocking(move || fetch_keys(&agent, &uri))
            .await
            .map_err(|error| error.to_string())??;
        tracing::info!(keys = set.keys.len(), "the issuer's keys fetched again");
        *self.keys.write().await = Keys {
            set,
            fetched: Instant::now(),
        };
        Ok(())
    }

    /// The key the token names, in the set held, and whether the set is
    /// due to be fetched again.
    async fn known_key(&self, header: &jsonwebtoken::Header) -> (Option<Jwk>, bool) {
        let keys = self.keys.read().await;
        let stale = keys.fetched.elapsed() > KEYS_TTL;
        let found = match &header.kid {
            Some(kid) => keys.set.find(kid).cloned(),
            None => match keys.set.keys.as_slice() {
                [only] => Some(only.clone()),
                _ => None,
            },
        };
        (found, stale)
    }

    /// An opaque token, as the issuer's introspection endpoint says it is
    /// (answers kept a minute at most, never past the token's expiry, and
    /// no more than [`MAX_INTROSPECTED`] at once).
    async fn introspect(&self, token: &str) -> Result<Holder, Refusal> {
        let Some((endpoint, client)) = &self.introspection else {
            return Err(Refusal::Invalid(
                "this server introspects no opaque tokens".to_owned(),
            ));
        };
        let key = rmcp::model::sha256_digest(token.as_bytes());
        if let Ok(mut kept) = self.introspected.lock() {
            kept.retain(|_, (until, _)| *until > Instant::now());
            if let Some((_, answer)) = kept.get(&key) {
                return answer.clone().map_err(Refusal::Invalid);
            }
        }
        let (agent, endpoint, client, token) = (
            self.agent.clone(),
            endpoint.clone(),
            client.clone(),
            token.to_owned(),
        );
        let answer =
            crate::spawn::spawn_blocking(move || introspect(&agent, &endpoint, &client, &token))
                .await
                .map_err(|error| Refusal::Unavailable(error.to_string()))?
                .map_err(|error| {
                    Refusal::Unavailable(format!("the issuer could not be asked: {error}"))
                })?;
        // Until the token expires (now, for one past it), a minute at most.
        let until = match answer.get("exp").and_then(Value::as_u64) {
            Some(exp) => Duration::from_secs(exp.saturating_sub(now())).min(INTROSPECTION_TTL),
            None => INTROSPECTION_TTL,
        };
        let held = self.introspected_holder(&answer);
        if let Ok(mut kept) = self.introspected.lock() {
            if kept.len() >= MAX_INTROSPECTED {
                kept.clear();
            }
            if !until.is_zero() {
                kept.insert(key, (Instant::now() + until, held.clone()));
            }
        }
        held.map_err(Refusal::Invalid)
    }

    /// The holder of an introspected token, if the answer makes it one of
    /// this resource's.
    fn introspected_holder(
        &self,
        answer: &serde_json::Map<String, Value>,
    ) -> Result<Holder, String> {
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err("the issuer says the token is not active".to_owned());
        }
        if let Some(iss) = answer.get("iss").and_then(Value::as_str) {
            if iss != self.issuer {
                return Err(format!("the token was not issued by {} (iss)", self.issuer));
            }
        }
        let audiences = match answer.get("aud") {
            Some(Value::String(aud)) => vec![aud.as_str()],
            Some(Value::Array(auds)) => auds.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !audiences.contains(&self.resource.as_str()) {
            return Err(format!(
                "the token is not for this resource (aud must be {})",
                self.resource
            ));
        }
        if answer
            .get("exp")
            .and_then(Value::as_u64)
            .is_some_and(|exp| exp + LEEWAY < now())
        {
            return Err("the token has expired".to_owned());
        }
        holder(&self.issuer, answer)
    }
}

/// A holder from a token's claims: `sub` (or `client_id`, for a token of
/// a client's own) and the scopes of `scope` (a space-separated string) or
/// `scp` (a string or a list). A token that names no subject is refused:
/// its sessions could not be told from another's.
fn holder(issuer: &str, claims: &serde_json::Map<String, Value>) -> Result<Holder, String> {
    let subject = claims
        .get("sub")
        .or_else(|| claims.get("client_id"))
        .and_then(Value::as_str)
        .filter(|subject| !subject.is_empty())
        .ok_or("the token names no subject (sub)")?;
    let mut scopes: Vec<String> = Vec::new();
    for claim in ["scope", "scp"] {
        match claims.get(claim) {
            Some(Value::String(text)) => scopes.extend(text.split_whitespace().map(str::to_owned)),
            Some(Value::Array(list)) => {
                scopes.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            _ => {}
        }
    }
    Ok(Holder {
        subject: format!("{issuer} {subject}"),
        scopes,
    })
}

/// Refuses a URL the server would fetch keys or answers from over plain
/// HTTP beyond this machine (where anyone on the way could put keys of
/// their own).
fn fetchable(url: &str) -> Result<(), String> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("{url:?} is not a URL"))?;
    let authority = rest.split('/').next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    let loopback = matches!(host, "localhost" | "127.0.0.1" | "[::1]");
    match scheme {
        "https" => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err(format!(
            "{url}: the issuer is reached over HTTPS only (plain HTTP on loopback alone)"
        )),
    }
}

/// Refuses a key whose declared algorithm or use does not fit the token.
fn check_key_fits(jwk: &Jwk, alg: Algorithm) -> Result<(), String> {
    if matches!(jwk.common.public_key_use, Some(ref key_use) if *key_use != PublicKeyUse::Signature)
    {
        return Err("the issuer's key is not a signing key".to_owned());
    }
    if let Some(declared) = jwk.common.key_algorithm {
        let fits = format!("{declared:?}") == format!("{alg:?}")
            || (declared == KeyAlgorithm::EdDSA && alg == Algorithm::EdDSA);
        if !fits {
            return Err(format!(
                "the token's algorithm {alg:?} is not its key's ({declared:?})"
            ));
        }
    }
    Ok(())
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs())
}

/// The issuer's metadata: RFC 8414's document (its path after the
/// well-known part, for an issuer with a path), else OpenID discovery's;
/// its `issuer` must be the one given.
fn discover(agent: &ureq::Agent, issuer: &str) -> Result<Metadata, String> {
    let issuer = issuer.trim_end_matches('/');
    let (origin, path) = split_origin(issuer)
        .ok_or_else(|| format!("--oauth-issuer {issuer:?}: expected an http(s) URL"))?;
    let candidates = [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
        format!("{issuer}/.well-known/openid-configuration"),
    ];
    let mut tried = Vec::new();
    for url in candidates {
        if tried.contains(&url) {
            continue;
        }
        match get_json(agent, &url) {
            Ok(document) => {
                let named = document
                    .get("issuer")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if named.trim_end_matches('/') != issuer {
                    return Err(format!(
                        "the metadata at {url} names the issuer {named:?}, not {issuer:?}"
                    ));
                }
                let text = |key: &str| document.get(key).and_then(Value::as_str).map(str::to_owned);
                let jwks_uri = text("jwks_uri")
                    .ok_or_else(|| format!("the metadata at {url} names no jwks_uri"))?;
                return Ok(Metadata {
                    issuer: named.to_owned(),
                    jwks_uri,
                    introspection_endpoint: text("introspection_endpoint"),
                });
            }
            Err(error) => tried.push(format!("{url}: {error}")),
        }
    }
    Err(format!(
        "cannot read the metadata of the issuer {issuer}: {}",
        tried.join("; ")
    ))
}

/// `https://host:port` and the path after it (`""` for none).
fn split_origin(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let host_end = rest.find('/').map_or(url.len(), |at| scheme.len() + 3 + at);
    Some((&url[..host_end], &url[host_end..]))
}

fn get_json(agent: &ureq::Agent, url: &str) -> Result<serde_json::Map<String, Value>, String> {
    let response = agent
        .get(url)
        .header("Accept", "application/json")
        .call()
        .map_err(|error| error.to_string())?;
    read_json(response)
}

fn read_json(
    response: ureq::http::Response<ureq::Body>,
) -> Result<serde_json::Map<String, Value>, String> {
    let status = response.status();
    let text = response
        .into_body()
        .into_with_config()
        .limit(MAX_ANSWER)
        .read_to_string()
        .map_err(|error| error.to_string())?;
    if !status.is_success() {
        return Err(format!("HTTP {status}"));
    }
    match serde_json::from_str(&text) {
        Ok(Value::Object(object)) => Ok(object),
        _ => Err("the answer is not a JSON object".to_owned()),
    }
}

fn fetch_keys(agent: &ureq::Agent, uri: &str) -> Result<JwkSet, String> {
    let document =
        get_json(agent, uri).map_err(|error| format!("the issuer's keys ({uri}): {error}"))?;
    let keys = document
        .get("keys")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // A key of a kind this cannot read is left out, not the whole set.
    let keys = keys
        .into_iter()
        .filter_map(|key| serde_json::from_value::<Jwk>(key).ok())
        .collect();
    Ok(JwkSet { keys })
}

fn introspect(
    agent: &ureq::Agent,
    endpoint: &str,
    client: &Client,
    token: &str,
) -> Result<serde_json::Map<String, Value>, String> {
    // RFC 6749 2.3.1: the id and secret form-encoded, then Basic.
    let credentials = format!(
        "{}:{}",
        form_encode(&client.id),
        form_encode(&client.secret)
    );
    let basic = base64::engine::general_purpose::STANDARD.encode(credentials);
    let response = agent
        .post(endpoint)
        .header("Authorization", &format!("Basic {basic}"))
        .header("Accept", "application/json")
        .send_form([("token", token), ("token_type_hint", "access_token")])
        .map_err(|error| error.to_string())?;
    read_json(response)
}

/// `application/x-www-form-urlencoded` of one value.
fn form_encode(value: &str) -> String {
    let mut encoded = String::new();
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                encoded.push(char::from(byte));
            }
            b' ' => encoded.push('+'),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_scopes_come_from_scope_or_scp_and_a_subject_is_needed() {
        let claims = serde_json::json!({"sub": "u", "scope": "a b", "scp": ["c"]});
        let holder = holder("https://as", claims.as_object().unwrap()).unwrap();
        assert_eq!(holder.subject, "https://as u");
        assert_eq!(holder.scopes, ["a", "b", "c"]);
        for nameless in [json!({"scope": "a"}), json!({"sub": 7}), json!({"sub": ""})] {
            assert!(super::holder("https://as", nameless.as_object().unwrap()).is_err());
        }
        let client = json!({"client_id": "c"});
        assert_eq!(
            super::holder("https://as", client.as_object().unwrap())
                .unwrap()
                .subject,
            "https://as c"
        );
    }

    #[test]
    fn keys_come_over_https_or_from_loopback() {
        for fine in [
            "https://sso.example/x",
            "http://127.0.0.1:8080/jwks",
            "http://localhost/j",
        ] {
            assert_eq!(fetchable(fine), Ok(()), "{fine}");
        }
        for bad in [
            "http://sso.example/jwks",
            "http://127.0.0.1.evil/x",
            "ftp://x",
            "x",
        ] {
            assert!(fetchable(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_issuer_with_a_path_keeps_it_after_the_well_known_part() {
        assert_eq!(
            split_origin("https://login.example/tenant/v2"),
            Some(("https://login.example", "/tenant/v2"))
        );
        assert_eq!(
            split_origin("http://127.0.0.1:9"),
            Some(("http://127.0.0.1:9", ""))
        );
        assert_eq!(split_origin("ftp://x"), None);
        assert_eq!(form_encode("a b:c"), "a+b%3Ac");
    }
}
