//! HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, RFC 850 and asctime, every
//! one in GMT. `httpdate` reads the three forms; this file only makes a
//! value it can read out of one a server spelled loosely, and says why a
//! value is no date.
//!
//! Loose spellings read (RFC 9110 §5.6.7 asks recipients to be robust):
//! any case (`sun, 06 nov 1994 08:49:37 gmt`), and runs of spaces or tabs
//! where one space belongs (asctime's day may then lose its padding).
//! Kept strict, as `httpdate` is: the weekday must be the date's, a
//! two-digit year is 1970–2069 (`httpdate`'s pivot), and the zone is GMT.

use std::time::UNIX_EPOCH;

/// Longer than any HTTP-date: `Wednesday, 06-Nov-94 08:49:37 GMT` is 33.
const LONGEST: usize = 40;

/// Why a value is no HTTP-date.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum NotADate {
    /// Not one of the three forms.
    Shape,
    /// One of them, in another zone than GMT (named).
    Zone(String),
    /// One of them, but the weekday is not the date's.
    Weekday,
}

/// The date `text` names (already trimmed), in ms since the Unix epoch;
/// 0 for a date before it.
pub(super) fn epoch_ms(text: &[u8]) -> Result<u64, NotADate> {
    let mut buf = [0u8; LONGEST];
    let len = normalise(text, &mut buf).ok_or(NotADate::Shape)?;
    let date = &buf[..len];
    if let Some(ms) = read(date) {
        return Ok(ms);
    }
    if before_1970(date) {
        return Ok(0);
    }
    Err(explain(date))
}

/// Whether `date` is a date, before 1970 or not.
fn valid(date: &[u8]) -> bool {
    read(date).is_some() || before_1970(date)
}

/// What `httpdate` reads from ASCII `date`, in ms since the epoch.
fn read(date: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(date).ok()?;
    let at = httpdate::parse_http_date(text).ok()?;
    let since = at.duration_since(UNIX_EPOCH).ok()?;
    u64::try_from(since.as_millis()).ok()
}

/// Writes `text` to `buf` in the spelling `httpdate` reads: each word
/// capitalised (`GMT` in capitals), one space between parts, asctime's day
/// padded to two places. `None` when it is no ASCII or too long to be a
/// date.
pub(super) fn normalise(text: &[u8], buf: &mut [u8; LONGEST]) -> Option<usize> {
    let mut len = 0;
    let mut prev = b' ';
    for &b in text {
        let b = match b {
            b'\t' => b' ',
            b if !b.is_ascii() => return None,
            b => b,
        };
        if b == b' ' && prev == b' ' {
            continue; // a run of whitespace is one space
        }
        let out = if prev.is_ascii_alphabetic() {
            b.to_ascii_lowercase()
        } else {
            b.to_ascii_uppercase()
        };
        *buf.get_mut(len)? = out;
        len += 1;
        prev = b;
    }
    if buf[..len].ends_with(b" Gmt") {
        buf[len - 2..len].copy_from_slice(b"MT");
    }
    // asctime with a one-digit day: `Sun Nov 6 08:49:37 1994`.
    if len == 23 && buf[3] == b' ' && buf[7] == b' ' && buf[8].is_ascii_digit() && buf[9] == b' ' {
        buf.copy_within(8..23, 9);
        buf[8] = b' ';
        len = 24;
    }
    Some(len)
}

/// Whether `date` is a well-formed date before 1970, which `httpdate`
/// refuses: read with its year moved on by whole 400-year cycles, after
/// which the Gregorian calendar, weekdays included, repeats.
fn before_1970(date: &[u8]) -> bool {
    // The 4-digit year of IMF-fixdate (`Sun, 06 Nov 1994 …`) or asctime
    // (`… 08:49:37 1994`); RFC 850's 2-digit years are never before 1970.
    let at = match date.len() {
        29 if date[3] == b',' => 12,
        24 if date[3] == b' ' => 20,
        _ => return false,
    };
    let Some(year) = std::str::from_utf8(&date[at..at + 4])
        .ok()
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|y| y.parse::<u32>().ok())
    else {
        return false;
    };
    if year >= 1970 {
        return false;
    }
    let moved = year + (1970 - year).div_ceil(400) * 400;
    let mut copy = [0u8; LONGEST];
    copy[..date.len()].copy_from_slice(date);
    for (i, digit) in copy[at..at + 4].iter_mut().enumerate() {
        *digit = b'0' + (moved / 10u32.pow(3 - i as u32) % 10) as u8;
    }
    read(&copy[..date.len()]).is_some()
}

/// Why `date`, which `httpdate` refused, is no date: another zone, or a
/// wrong weekday, when GMT or another weekday would make it one.
fn explain(date: &[u8]) -> NotADate {
    // The zone: IMF-fixdate's and RFC 850's last word.
    if date.contains(&b',') {
        if let Some(space) = date.iter().rposition(|&b| b == b' ') {
            let zone = &date[space + 1..];
            if zone != b"GMT" && !zone.is_empty() {
                let mut copy = date[..=space].to_vec();
                copy.extend_from_slice(b"GMT");
                if valid(&copy) {
                    // ASCII, as normalise keeps only that.
                    let zone = String::from_utf8(zone.to_ascii_uppercase()).unwrap_or_default();
                    return NotADate::Zone(zone);
                }
            }
        }
    }
    // The weekday: the leading word, short (IMF-fixdate, asctime) or long
    // (RFC 850).
    let word = date.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let rest = &date[word..];
    let names: &[&str] = if word == 3 {
        &["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    } else {
        &[
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ]
    };
    for name in names {
        let mut copy = name.as_bytes().to_vec();
        copy.extend_from_slice(rest);
        if valid(&copy) {
            return NotADate::Weekday;
        }
    }
    NotADate::Shape
}
