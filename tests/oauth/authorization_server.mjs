// An OAuth 2.1 authorization server on loopback, for the OAuth tests
// (tests/tests/oauth.rs): the certified `oidc-provider`, with dynamic client
// registration, PKCE, resource indicators issuing JWT access tokens (RFC
// 9068) for the resource asked, and a login and consent that approve at
// once, so a client's browser step runs headless. Run from the folder of
// scripts/node-tools.sh, whose node_modules has oidc-provider:
//
//   node authorization_server.mjs      # prints "ready <issuer>" when it listens
//
// Besides what an authorization server serves, `POST /test/mint` signs the
// JWT it is given (header and claims as JSON) with its own key, a key it
// never published ("stranger": same kid, or another), or none ("alg":
// "none"), and `POST /test/tamper` changes a token's claims and keeps its
// signature: the tokens a test needs to see each refusal.
import http from 'node:http';
import Provider, { errors } from 'oidc-provider';
import { generateKeyPair, exportJWK, SignJWT, base64url } from 'jose';

const SCOPES = ['mcp:tools', 'admin'];

const own = await generateKeyPair('RS256', { extractable: true });
const stranger = await generateKeyPair('RS256', { extractable: true });
const privateJwk = { ...(await exportJWK(own.privateKey)), kid: 'as-key-1', alg: 'RS256', use: 'sig' };

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  jwks: { keys: [privateJwk] },
  clients: [
    // The MCP server's own client, to introspect opaque tokens (RFC 7662).
    { client_id: 'mcp-server', client_secret: 'server-secret', grant_types: [], response_types: [],
      redirect_uris: [] },
    // A client of the test's own: real tokens without a browser step.
    { client_id: 'minter', client_secret: 'minter-secret', grant_types: ['client_credentials'],
      response_types: [], redirect_uris: [] },
  ],
  scopes: ['openid', 'offline_access', ...SCOPES],
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: true },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (ctx, client, oneOf) => oneOf,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => {
        if (!/^http:\/\/127\.0\.0\.1:\d+\/(mcp|other|opaque|opaque-other)$/.test(resource)) throw new errors.InvalidTarget();
        // A resource under /opaque gets opaque tokens, to introspect.
        if (resource.includes('/opaque')) {
          return { scope: SCOPES.join(' '), audience: resource, accessTokenTTL: 300, accessTokenFormat: 'opaque' };
        }
        return {
          scope: SCOPES.join(' '),
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  // A registered client keeps no scope of its own, so asking for more later
  // (a step-up after 403 insufficient_scope) is not refused.
  extraClientMetadata: {
    properties: ['scope'],
    validator(ctx, key, value, metadata) { if (key === 'scope') delete metadata.scope; },
  },
  pkce: { required: () => true },
  ttl: { AccessToken: 300, ClientCredentials: 300, Grant: 600, Interaction: 600, RefreshToken: 600, Session: 600 },
  findAccount: (ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
});

// Log in as "test-user" and grant whatever is asked.
async function approve(req, res) {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  let result;
  if (prompt.name === 'login') {
    result = { login: { accountId: 'test-user' } };
  } else {
    const grant = grantId ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const missing = prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(' '));
    }
    result = { consent: { grantId: await grant.save() } };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function mint(req, res) {
  const { header, claims, key } = await body(req);
  let token;
  if (header.alg === 'none') {
    const encode = (value) => base64url.encode(JSON.stringify(value));
    token = `${encode(header)}.${encode(claims)}.`;
  } else {
    const signer = key === 'stranger' ? stranger.privateKey : own.privateKey;
    token = await new SignJWT(claims).setProtectedHeader(header).sign(signer);
  }
  res.end(token);
}

async function tamper(req, res) {
  const { token, claims } = await body(req);
  const [header, payload, signature] = token.split('.');
  const changed = { ...JSON.parse(new TextDecoder().decode(base64url.decode(payload))), ...claims };
  res.end(`${header}.${base64url.encode(JSON.stringify(changed))}.${signature}`);
}

const callback = provider.callback();
server.on('request', (req, res) => {
  const fail = (error) => { res.statusCode = 500; res.end(String(error)); };
  if (req.url.startsWith('/interaction/')) approve(req, res).catch(fail);
  else if (req.url === '/test/mint') mint(req, res).catch(fail);
  else if (req.url === '/test/tamper') tamper(req, res).catch(fail);
  else callback(req, res);
});
console.log(`ready ${issuer}`);
