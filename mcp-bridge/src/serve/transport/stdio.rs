//! The guarded stdio streams: the protocol keeps private handles on the
//! original standard input and output; fd 1 is pointed at stderr and fd 0
//! at `/dev/null`.

use super::{LineTransport, Reader, Writer};

/// Private handles on the original standard input and output, after
/// pointing the process's fd 1 at stderr and fd 0 at `/dev/null`: from
/// then on a stray `println!` in a handler or a dependency lands in the log
/// (or a call's captured output), never in the protocol, and a handler
/// reading stdin reads nothing instead of the client's messages.
pub(crate) fn guarded_stdio() -> std::io::Result<LineTransport> {
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::fd::AsFd;

        std::io::stdout().flush()?;
        let (reader, writer, input) = unix_protocol_streams()?;
        rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
        null_stdin()?;
        let mut transport = LineTransport::new(reader, writer);
        transport.input = input;
        Ok(transport)
    }
    #[cfg(not(unix))]
    {
        Ok(LineTransport::new(tokio::io::stdin(), tokio::io::stdout()))
    }
}

/// Points fd 0 at `/dev/null`: a handler reading stdin reads nothing.
#[cfg(unix)]
pub(crate) fn null_stdin() -> std::io::Result<()> {
    use std::os::fd::AsFd;
    rustix::stdio::dup2_stdin(std::fs::File::open("/dev/null")?.as_fd())?;
    Ok(())
}

/// The protocol's streams, and the input again when it is a pipe (for a
/// call thread to wait on its readiness).
#[cfg(unix)]
fn unix_protocol_streams() -> std::io::Result<(Reader, Writer, Option<std::os::fd::OwnedFd>)> {
    use std::os::fd::AsFd;

    // Pipes (how MCP clients start servers) are reopened as non-blocking
    // pipes on their own file descriptions, so reads and writes run on the
    // reactor; anything else (a file, a terminal) uses the blocking pool.
    #[cfg(target_os = "linux")]
    if let (Some(input), Some(output)) = (reopen_fifo(0, false), reopen_fifo(1, true)) {
        let watched = input.try_clone().ok();
        if let (Ok(reader), Ok(writer)) = (
            tokio::net::unix::pipe::Receiver::from_owned_fd(input),
            tokio::net::unix::pipe::Sender::from_owned_fd(output),
        ) {
            return Ok((Box::pin(reader), Box::pin(writer), watched));
        }
    }
    let input = std::io::stdin().as_fd().try_clone_to_owned()?;
    let reader = tokio::fs::File::from_std(std::fs::File::from(input));
    let output = std::io::stdout().as_fd().try_clone_to_owned()?;
    let writer = tokio::fs::File::from_std(std::fs::File::from(output));
    Ok((Box::pin(reader), Box::pin(writer), None))
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
