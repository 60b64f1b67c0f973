//! The guarded stdio streams: the protocol keeps private handles on the
//! original standard input and output; fd 1 is pointed at stderr and fd 0
//! at `/dev/null`.

use super::{LineTransport, Writer};

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
        let (input, writer) = unix_protocol_streams()?;
        rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
        null_stdin()?;
        LineTransport::threaded(input, writer)
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

/// The protocol's streams: the input, read by the call threads (blocking
/// reads; a pipe reopened on a file description of its own, so that
/// another process sharing it is not affected), and the output.
#[cfg(unix)]
fn unix_protocol_streams() -> std::io::Result<(std::fs::File, Writer)> {
    use std::os::fd::AsFd;

    let input =
        reopen_fifo(0, false).map_or_else(|| rustix::stdio::stdin().try_clone_to_owned(), Ok)?;
    // A pipe (how MCP clients start servers) is reopened as a non-blocking
    // pipe on its own file description, so writes run on the reactor;
    // anything else (a file, a terminal) uses the blocking pool.
    #[cfg(target_os = "linux")]
    if let Some(output) = reopen_fifo(1, true) {
        if let Ok(writer) = tokio::net::unix::pipe::Sender::from_owned_fd(output) {
            return Ok((input.into(), Box::pin(writer)));
        }
    }
    let output = std::io::stdout().as_fd().try_clone_to_owned()?;
    let writer = tokio::fs::File::from_std(std::fs::File::from(output));
    Ok((input.into(), Box::pin(writer)))
}

/// Opens the pipe at `fd` again, on a file description of its own
/// (blocking for reading, non-blocking for writing); `None` if it is no
/// pipe.
#[cfg(target_os = "linux")]
fn reopen_fifo(fd: i32, write: bool) -> Option<std::os::fd::OwnedFd> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    // Opened non-blocking, which does not wait for a writer to come.
    let file = std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(format!("/proc/self/fd/{fd}"))
        .ok()?;
    let is_fifo = file.metadata().ok()?.file_type().is_fifo();
    if !write {
        rustix::fs::fcntl_setfl(&file, rustix::fs::OFlags::empty()).ok()?;
    }
    is_fifo.then(|| file.into())
}

#[cfg(all(unix, not(target_os = "linux")))]
fn reopen_fifo(_fd: i32, _write: bool) -> Option<std::os::fd::OwnedFd> {
    None
}
