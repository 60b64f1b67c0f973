//! The report of a check: up to a few problems, each at a site, turned
//! into compile errors by `fail_at`.

use super::msg::Msg;

const MAX_PROBLEMS: usize = 8;

#[derive(Clone, Copy)]
pub(super) struct Problem {
    pub(super) site: u32,
    pub(super) kind: u8,
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) msg: Msg,
}

/// What a check found: up to 8 problems, each at a site.
pub struct CheckReport {
    pub(super) problems: [Problem; MAX_PROBLEMS],
    len: usize,
}

impl CheckReport {
    pub(super) const fn new() -> Self {
        Self {
            problems: [Problem {
                site: 0,
                kind: 0,
                a: 0,
                b: 0,
                msg: Msg::new(),
            }; MAX_PROBLEMS],
            len: 0,
        }
    }

    pub(super) const fn seen(&self, kind: u8, a: usize, b: usize) -> bool {
        let mut i = 0;
        while i < self.len {
            let p = &self.problems[i];
            if p.kind == kind && p.a == a && p.b == b {
                return true;
            }
            i += 1;
        }
        false
    }

    pub(super) const fn add(&mut self, site: u32, kind: u8, a: usize, b: usize, msg: Msg) {
        if self.len < MAX_PROBLEMS && !self.seen(kind, a, b) {
            self.problems[self.len] = Problem {
                site,
                kind,
                a,
                b,
                msg,
            };
            self.len += 1;
        }
    }

    /// Whether nothing was found.
    pub const fn is_ok(&self) -> bool {
        self.len == 0
    }

    /// The message of the `index`-th problem.
    pub const fn message(&self, index: usize) -> Option<&str> {
        if index < self.len {
            Some(self.problems[index].msg.as_str())
        } else {
            None
        }
    }
}

/// Fails compilation, at the caller's tokens, with the first problem found
/// at `site`.
#[track_caller]
pub const fn fail_at(report: &CheckReport, site: u32) {
    let mut i = 0;
    while i < report.len {
        if report.problems[i].site == site {
            panic!("{}", report.problems[i].msg.as_str());
        }
        i += 1;
    }
}
