//! Messages built at compile time, into fixed-size buffers.

use super::name::ToolName;
use super::walk::{Table, NO_PARENT};

pub(super) const MSG_LEN: usize = 640;

/// A message built at compile time.
#[derive(Clone, Copy)]
pub struct Msg {
    buf: [u8; MSG_LEN],
    len: usize,
    full: bool,
}

impl Msg {
    pub(super) const fn new() -> Self {
        Self {
            buf: [0; MSG_LEN],
            len: 0,
            full: false,
        }
    }

    pub(super) const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if self.full {
            return;
        }
        if self.len + bytes.len() + "…".len() > MSG_LEN {
            // Cut at a character boundary and say so.
            let mut keep = MSG_LEN - "…".len() - self.len;
            while keep > 0 && keep < bytes.len() && (bytes[keep] & 0xC0) == 0x80 {
                keep -= 1;
            }
            self.copy(bytes, keep);
            self.copy("…".as_bytes(), "…".len());
            self.full = true;
            return;
        }
        self.copy(bytes, bytes.len());
    }

    pub(super) const fn copy(&mut self, bytes: &[u8], count: usize) {
        let mut i = 0;
        while i < count && i < bytes.len() && self.len < MSG_LEN {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
    }

    pub(super) const fn push_number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[19 - count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let (_, tail) = digits.split_at(20 - count);
        if let Ok(text) = core::str::from_utf8(tail) {
            self.push(text);
        }
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(_) => "invalid MCP surface",
        }
    }
}

const MAX_DEPTH: usize = 32;

/// The commands from the top (index 0) down to `cmd`.
const fn chain<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
) -> ([usize; MAX_DEPTH], usize) {
    let mut up = [0usize; MAX_DEPTH];
    let mut n = 0;
    let mut at = cmd;
    while at != NO_PARENT && n < MAX_DEPTH {
        up[n] = at;
        n += 1;
        at = t.cmds[at].parent;
    }
    let mut down = [0usize; MAX_DEPTH];
    let mut i = 0;
    while i < n {
        down[i] = up[n - 1 - i];
        i += 1;
    }
    (down, n)
}

/// The command path joined with `sep`; `…` stands for the unknown part
/// above the checking type.
pub(super) const fn push_path<const C: usize, const P: usize>(
    msg: &mut Msg,
    t: &Table<C, P>,
    cmd: usize,
    sep: &str,
) {
    let (down, n) = chain(t, cmd);
    let mut i = 0;
    while i < n {
        if i > 0 {
            msg.push(sep);
        }
        if down[i] == 0 && !t.root_known {
            msg.push("…");
        } else {
            msg.push(t.cmds[down[i]].name);
        }
        i += 1;
    }
}

pub(super) const fn push_tool_name<const C: usize, const P: usize>(
    msg: &mut Msg,
    t: &Table<C, P>,
    cmd: usize,
) {
    if t.root_known {
        // The name served, shortened or not.
        let name = ToolName::of(t, cmd);
        let mut buf = [0u8; 128];
        let mut p = 0;
        while p < name.len && p < buf.len() {
            buf[p] = name.byte(t, cmd, p);
            p += 1;
        }
        msg.copy(&buf, p);
        return;
    }
    match t.cmds[cmd].mcp_name {
        Some(name) => msg.push(name),
        None => push_path(msg, t, cmd, "_"),
    }
}

pub(super) const fn push_command<const C: usize, const P: usize>(
    msg: &mut Msg,
    t: &Table<C, P>,
    cmd: usize,
) {
    msg.push(t.cmds[cmd].origin);
    msg.push(" (command `");
    push_path(msg, t, cmd, " ");
    msg.push("`)");
}
