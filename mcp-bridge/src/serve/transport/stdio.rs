//! The guarded stdio streams: the protocol keeps a private handle on the
//! original standard output, and fd 1 is pointed at stderr.

use super::{LineTransport, Reader, Writer};

/// Standard input and a private handle on the original standard output,
/// after pointing the process's fd 1 at stderr: from then on a stray
/// `println!` in the handler or a dependency lands in the log, never in the
/// protocol.
pub(crate) fn guarded_stdio() -> std::io::Result<LineTransport> {
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::fd::AsFd;

        std::io::stdout().flush()?;
        let (reader, writer) = unix_protocol_streams()?;
        rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
        Ok(LineTransport::new(reader, writer))
    }
    #[cfg(not(unix))]
    {
        Ok(LineTransport::new(tokio::io::stdin(), tokio::io::stdout()))
    }
}

#[cfg(unix)]
fn unix_protocol_streams() -> std::io::Result<(Reader, Writer)> {
    use std::os::fd::AsFd;

    // Pipes (how MCP clients start servers) are reopened as non-blocking
    // pipes on their own file descriptions, so reads and writes run on the
    // reactor; anything else (a file, a terminal) uses the blocking pool.
    #[cfg(target_os = "linux")]
    if let (Some(input), Some(output)) = (reopen_fifo(0, false), reopen_fifo(1, true)) {
        if let (Ok(reader), Ok(writer)) = (
            tokio::net::unix::pipe::Receiver::from_owned_fd(input),
            tokio::net::unix::pipe::Sender::from_owned_fd(output),
        ) {
            return Ok((Box::pin(reader), Box::pin(writer)));
        }
    }
    let output = std::io::stdout().as_fd().try_clone_to_owned()?;
    let writer = tokio::fs::File::from_std(std::fs::File::from(output));
    Ok((Box::pin(tokio::io::stdin()), Box::pin(writer)))
}

#[cfg(target_os = "linux")]
fn reopen_fifo(fd: i32, write: bool) -> Option<std::os::fd::OwnedFd> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    let file = std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(format!("/proc/self/fd/{fd}"))
        .ok()?;
    let is_fifo = file.metadata().ok()?.file_type().is_fifo();
    is_fifo.then(|| file.into())
}
