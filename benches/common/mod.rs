//! What every benchmark harness reads from its command line, and the
//! hostile files some of them measure.

pub mod hostile;

/// The value after `name` on the command line (`--out FILE`), if any.
pub fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).cloned()
}

/// `--rounds N`, 5 by default.
pub fn rounds() -> usize {
    arg("--rounds").and_then(|r| r.parse().ok()).unwrap_or(5)
}
