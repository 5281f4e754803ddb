//! Parse options: which profile to follow and how much of a body to read.

use crate::Error;

/// The smallest parse limit allowed: RFC 9309 §2.5 asks crawlers to parse at
/// least 500 KiB, and Googlebot reads exactly that much.
pub const MIN_PARSE_LIMIT: usize = 512_000;

/// The largest parse limit allowed: offsets are kept in 32 bits, and
/// normalising can triple a pattern.
pub const MAX_PARSE_LIMIT: usize = 1 << 29;

/// Which reading of robots.txt to follow where RFC 9309 and Google differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RFC 9309 as written: strict product tokens, percent-normalised
    /// matching, `/robots.txt` always allowed.
    #[default]
    Rfc9309,
    /// Bit-for-bit what Google's open-source parser answers: any crawler
    /// name, paths compared as given, the `index.html` rule, the 16,663-byte
    /// line cap and C-string lines.
    Google,
}

impl Profile {
    /// The profile's name as the command line and the bindings spell it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc9309 => "rfc",
            Profile::Google => "google",
        }
    }
}

/// How to parse a body. The default is the RFC profile, a 500 KiB limit and
/// Google's accepted key typos.
///
/// ```
/// use robotstxt::{Options, Profile};
/// let opts = Options::new(Profile::Google).with_parse_limit(1 << 20)?.with_typos(false);
/// assert_eq!(opts.parse_limit(), 1 << 20);
/// # Ok::<(), robotstxt::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    profile: Profile,
    parse_limit: usize,
    typos: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::new(Profile::Rfc9309)
    }
}

impl Options {
    /// The defaults for `profile`.
    pub const fn new(profile: Profile) -> Self {
        Options {
            profile,
            parse_limit: MIN_PARSE_LIMIT,
            typos: true,
        }
    }

    /// Reads up to `bytes` of a body instead of 512,000.
    ///
    /// # Errors
    /// [`Error::ParseLimit`] when `bytes` is below [`MIN_PARSE_LIMIT`]
    /// (§2.5 forbids it) or above [`MAX_PARSE_LIMIT`].
    pub fn with_parse_limit(mut self, bytes: usize) -> Result<Self, Error> {
        if !(MIN_PARSE_LIMIT..=MAX_PARSE_LIMIT).contains(&bytes) {
            return Err(Error::ParseLimit { requested: bytes });
        }
        self.parse_limit = bytes;
        Ok(self)
    }

    /// Accepts (the default) or rejects Google's list of key typos such as
    /// `useragent` and `dissallow`.
    pub const fn with_typos(mut self, accept: bool) -> Self {
        self.typos = accept;
        self
    }

    /// Switches the profile, keeping the other options.
    pub const fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// The profile.
    pub const fn profile(&self) -> Profile {
        self.profile
    }

    /// How many bytes of a body are parsed.
    pub const fn parse_limit(&self) -> usize {
        self.parse_limit
    }

    /// Whether key typos are accepted.
    pub const fn typos(&self) -> bool {
        self.typos
    }
}
