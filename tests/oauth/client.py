"""A real MCP client doing OAuth against an mcp-bridge server (the Python
SDK's OAuthClientProvider; tests/tests/oauth.rs runs it): it reads the
server's metadata from the 401, registers itself with the authorization
server, authorizes with PKCE for the server's resource, lists and calls,
and steps up when a tool answers 403 insufficient_scope. The browser step
follows the authorization server's redirects, which approve at once.

    python client.py http://127.0.0.1:PORT/mcp

The last line printed is a JSON report of what happened.
"""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import ClientSession
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

URL = sys.argv[1]
# Never listened on: the "browser" stops when it is sent there.
REDIRECT = "http://127.0.0.1:9/callback"


class Memory(TokenStorage):
    def __init__(self):
        self.tokens = None
        self.client = None
        self.scopes = []

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken):
        self.tokens = tokens
        self.scopes.append(tokens.scope or "")

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client: OAuthClientInformationFull):
        self.client = client


codes: asyncio.Queue = asyncio.Queue()
authorizations = 0


async def browser(authorization_url: str) -> None:
    """Follows the authorization server's redirects to the redirect URI."""
    global authorizations
    authorizations += 1
    async with httpx2.AsyncClient() as http:
        url = authorization_url
        for _ in range(10):
            response = await http.get(url)
            location = response.headers.get("location")
            if response.status_code not in (302, 303) or not location:
                raise RuntimeError(f"{response.status_code}: {response.text[:300]}")
            url = str(response.url.join(location))
            if url.startswith(REDIRECT):
                query = parse_qs(urlparse(url).query)
                if "error" in query:
                    raise RuntimeError(f"authorization refused: {query}")
                codes.put_nowait(
                    AuthorizationCodeResult(
                        code=query["code"][0],
                        state=query.get("state", [None])[0],
                        iss=query.get("iss", [None])[0],
                    )
                )
                return
    raise RuntimeError("never sent to the redirect URI")


async def callback() -> AuthorizationCodeResult:
    return await codes.get()


async def main():
    storage = Memory()
    auth = OAuthClientProvider(
        server_url=URL,
        client_metadata=OAuthClientMetadata(
            client_name="mcp-bridge OAuth test",
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=browser,
        callback_handler=callback,
    )
    report = {}
    async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
        async with streamable_http_client(URL, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                report["first_scope"] = storage.scopes[0]
                tools = await session.list_tools()
                report["listed"] = [tool.name for tool in tools.tools]
                shout = await session.call_tool("fixture_shout", {"text": "hi"})
                report["shout"] = shout.content[0].text
                measure = await session.call_tool("fixture_measure", {"words": ["ab", "cdef"]})
                report["measure"] = measure.structured_content
    report["last_scope"] = storage.scopes[-1]
    report["authorizations"] = authorizations
    print(json.dumps(report))


asyncio.run(main())
