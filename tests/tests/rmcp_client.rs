//! `taskctl mcp serve` driven by rmcp's own client, one suite
//! (`common/rmcp_suite.rs`) over each transport: stdio, Streamable HTTP
//! with sessions, and stateless Streamable HTTP. What works over one works
//! the same over the others.

mod common;

/// Which server the suite talks to.
#[allow(dead_code)]
#[derive(Clone, Copy)]
enum Via {
    Stdio,
    Http { stateless: bool },
}

mod stdio {
    use super::Via;
    const VIA: Via = Via::Stdio;
    include!("common/rmcp_suite.rs");
}

mod http {
    use super::Via;
    const VIA: Via = Via::Http { stateless: false };
    include!("common/rmcp_suite.rs");
}

mod http_stateless {
    use super::Via;
    const VIA: Via = Via::Http { stateless: true };
    include!("common/rmcp_suite.rs");
}
