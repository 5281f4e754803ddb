//! Parse options as a C struct: profile, parse limit, typo leniency.

use super::status::Failure;
use super::{guard_value, Outcome};
use engine::{Options, Profile};

/// Which reading of robots.txt to follow where RFC 9309 and Google differ.
pub type robotstxt_profile = u32;

/// RFC 9309 as written (the default): strict product tokens,
/// percent-normalised matching, `/robots.txt` always allowed.
pub const ROBOTSTXT_PROFILE_RFC: robotstxt_profile = 0;
/// What Google's open-source parser answers: any crawler name compared
/// whole, paths compared as given, the `index.html` rule, the 16,663-byte
/// line cap and lines cut at NUL.
pub const ROBOTSTXT_PROFILE_GOOGLE: robotstxt_profile = 1;

/// The smallest parse limit, in bytes: 500 KiB (RFC 9309 §2.5).
pub const ROBOTSTXT_MIN_PARSE_LIMIT: usize = 512_000;
/// The largest parse limit, in bytes.
pub const ROBOTSTXT_MAX_PARSE_LIMIT: usize = 536_870_912;

// The header cannot evaluate the core's constants, so it carries copies.
const _: () = assert!(ROBOTSTXT_MIN_PARSE_LIMIT == engine::MIN_PARSE_LIMIT);
const _: () = assert!(ROBOTSTXT_MAX_PARSE_LIMIT == engine::MAX_PARSE_LIMIT);

/// How to parse a body. Start from `robotstxt_options_default()` and change
/// what you need; a zeroed struct is invalid (its parse limit is 0).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_options {
    /// `ROBOTSTXT_PROFILE_RFC` (default) or `ROBOTSTXT_PROFILE_GOOGLE`.
    pub profile: robotstxt_profile,
    /// How many bytes of a body are parsed: 512,000 by default, between
    /// `ROBOTSTXT_MIN_PARSE_LIMIT` and `ROBOTSTXT_MAX_PARSE_LIMIT`. A line
    /// cut by the limit is dropped.
    pub parse_limit: usize,
    /// Accept Google's list of key typos such as `useragent` and
    /// `dissallow` (default true).
    pub typos: bool,
}

/// The default options: RFC profile, a 512,000-byte parse limit, typos
/// accepted.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_options_default() -> robotstxt_options {
    let fallback = robotstxt_options {
        profile: ROBOTSTXT_PROFILE_RFC,
        parse_limit: ROBOTSTXT_MIN_PARSE_LIMIT,
        typos: true,
    };
    guard_value("robotstxt_options_default", fallback, || {
        let core = Options::default();
        robotstxt_options {
            profile: profile_code(core.profile()),
            parse_limit: core.parse_limit(),
            typos: core.typos(),
        }
    })
}

pub(super) fn profile_code(profile: Profile) -> robotstxt_profile {
    match profile {
        Profile::Rfc9309 => ROBOTSTXT_PROFILE_RFC,
        Profile::Google => ROBOTSTXT_PROFILE_GOOGLE,
    }
}

fn profile(code: robotstxt_profile) -> Outcome<Profile> {
    match code {
        ROBOTSTXT_PROFILE_RFC => Ok(Profile::Rfc9309),
        ROBOTSTXT_PROFILE_GOOGLE => Ok(Profile::Google),
        _ => Err(Failure::option(
            "profile",
            "ROBOTSTXT_PROFILE_RFC (0) or ROBOTSTXT_PROFILE_GOOGLE (1)",
        )),
    }
}

impl robotstxt_options {
    /// The core's options; an unknown profile or a parse limit out of range
    /// is an error.
    pub(super) fn to_core(self) -> Outcome<Options> {
        Ok(Options::new(profile(self.profile)?)
            .with_parse_limit(self.parse_limit)?
            .with_typos(self.typos))
    }
}
