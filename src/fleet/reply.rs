//! A Redis reply as a binding's client hands it over, and the reading of
//! the fleet scripts' answers from it: a reply the core cannot read is an
//! error that names the script, never a guess.

use crate::Error;

/// One Redis reply, as the binding's client gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A nil bulk string or array.
    Nil,
    /// An integer.
    Int(i64),
    /// A bulk or simple string.
    Bytes(Vec<u8>),
    /// An array of replies.
    Array(Vec<Reply>),
    /// An error reply: what Redis said.
    Error(String),
}

/// The items of a script's answer: an array's, or the one scalar.
pub(crate) struct Answer<'a> {
    script: &'static str,
    items: &'a [Reply],
}

pub(crate) fn answer<'a>(script: &'static str, reply: &'a Reply) -> Result<Answer<'a>, Error> {
    let items = match reply {
        Reply::Array(items) => items.as_slice(),
        Reply::Error(message) => {
            return Err(bad(script, format!("Redis answered an error: {message}")))
        }
        scalar => std::slice::from_ref(scalar),
    };
    Ok(Answer { script, items })
}

pub(crate) fn bad(script: &'static str, reason: String) -> Error {
    Error::BadReply { script, reason }
}

impl Answer<'_> {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    fn item(&self, at: usize) -> Result<&Reply, Error> {
        self.items.get(at).ok_or_else(|| {
            bad(
                self.script,
                format!("{} items, no item {at}", self.items.len()),
            )
        })
    }

    /// Item `at` as an integer: Lua numbers arrive as integers, though a
    /// client may hand them over as text.
    pub fn int(&self, at: usize) -> Result<i64, Error> {
        match self.item(at)? {
            Reply::Int(n) => Ok(*n),
            Reply::Bytes(b) => std::str::from_utf8(b)
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| {
                    bad(
                        self.script,
                        format!(
                            "item {at} is not an integer: {:?}",
                            String::from_utf8_lossy(b)
                        ),
                    )
                }),
            other => Err(bad(
                self.script,
                format!("item {at} is not an integer: {other:?}"),
            )),
        }
    }

    /// Item `at` as a time or count the fleet keeps (≥ 0).
    pub fn ms(&self, at: usize) -> Result<u64, Error> {
        let n = self.int(at)?;
        u64::try_from(n).map_err(|_| bad(self.script, format!("item {at} is negative: {n}")))
    }

    /// Item `at` as bytes (an integer as its decimal text).
    pub fn bytes(&self, at: usize) -> Result<std::borrow::Cow<'_, [u8]>, Error> {
        match self.item(at)? {
            Reply::Bytes(b) => Ok(std::borrow::Cow::Borrowed(b.as_slice())),
            Reply::Int(n) => Ok(std::borrow::Cow::Owned(n.to_string().into_bytes())),
            Reply::Nil => Ok(std::borrow::Cow::Borrowed(&[])),
            other => Err(bad(
                self.script,
                format!("item {at} is not a string: {other:?}"),
            )),
        }
    }

    /// Item `at` as UTF-8 text.
    pub fn text(&self, at: usize) -> Result<String, Error> {
        let bytes = self.bytes(at)?;
        String::from_utf8(bytes.into_owned())
            .map_err(|_| bad(self.script, format!("item {at} is not UTF-8")))
    }
}
