//! Side-by-side benchmark: robotstxt (both profiles) against the crates a
//! user would otherwise pick, in one process on the same inputs
//! (`../shared/corpus`, `../shared/bench`). Prints a Markdown report; every
//! figure comes with its ratio to each peer from the same run.
//!
//! `cargo bench --bench compare [-- --rounds N --out FILE]`

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use robotstxt::{Options, Profile, Robots, Rules};

// ---- counting allocator: live bytes and allocation count ----

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

// ---- inputs ----

fn shared() -> PathBuf {
    std::env::var_os("ROBOTSTXT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = shared().join("bench").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the benchmarks need the full shared workload (set ROBOTSTXT_SHARED)",
            path.display()
        )
    });
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(shared().join("corpus").join(rel))
        .or_else(|_| std::fs::read(shared().join("bench").join(rel)))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A body as each library wants it: bytes, or lossily decoded text.
struct Body {
    bytes: Vec<u8>,
    text: String,
    /// The Google port panics on some inputs (it slices `&str`s
    /// mid-character); those it skips.
    port_ok: bool,
}

impl Body {
    fn new(mut bytes: Vec<u8>) -> Body {
        bytes.truncate(512_000);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let port_ok = std::panic::catch_unwind(|| {
            google_robotstxt::parse_robotstxt(&text, &mut Discard);
        })
        .is_ok();
        Body {
            bytes,
            text,
            port_ok,
        }
    }
}

struct CheckFile {
    name: String,
    body: Body,
    urls: Vec<String>,
    /// The path each URL is matched on, for peers that take paths.
    paths: Vec<String>,
}

fn path_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    match rest.find('/') {
        Some(i) => rest[i..].split('#').next().unwrap_or("/").to_owned(),
        None => "/".to_owned(),
    }
}

fn check_files(rows: Vec<Vec<String>>, file_col: usize, url_col: usize) -> Vec<CheckFile> {
    let mut out: Vec<CheckFile> = Vec::new();
    for row in rows {
        let (file, url) = (&row[file_col], &row[url_col]);
        if out.last().is_none_or(|f| &f.name != file) {
            out.push(CheckFile {
                name: file.clone(),
                body: Body::new(read(file)),
                urls: Vec::new(),
                paths: Vec::new(),
            });
        }
        let last = out.last_mut().unwrap();
        last.paths.push(path_of(url));
        last.urls.push(url.clone());
    }
    out
}

// ---- the libraries ----

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lib {
    OursRfc,
    OursGoogle,
    Texting,
    Google,
    Fast,
}

const ALL_LIBS: [Lib; 5] = [
    Lib::OursRfc,
    Lib::OursGoogle,
    Lib::Texting,
    Lib::Google,
    Lib::Fast,
];
const PEERS: [Lib; 3] = [Lib::Texting, Lib::Google, Lib::Fast];

impl Lib {
    fn name(self) -> &'static str {
        match self {
            Lib::OursRfc => "robotstxt (rfc)",
            Lib::OursGoogle => "robotstxt (google)",
            Lib::Texting => "texting_robots 0.2",
            Lib::Google => "robotstxt 0.3 (Google port)",
            Lib::Fast => "fast-robots 0.1",
        }
    }
}

/// A no-op handler: the Google port's parser alone.
struct Discard;
impl google_robotstxt::RobotsParseHandler for Discard {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _: u32, _: &str) {}
    fn handle_allow(&mut self, _: u32, _: &str) {}
    fn handle_disallow(&mut self, _: u32, _: &str) {}
    fn handle_sitemap(&mut self, _: u32, _: &str) {}
    fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {}
}

fn options(lib: Lib) -> Options {
    Options::new(if lib == Lib::OursGoogle {
        Profile::Google
    } else {
        Profile::Rfc9309
    })
}

/// What a parse leaves, held (the memory table keeps every file's). As it
/// is, with no box around it, so that a parse costs what the library's
/// own does.
enum Parsed<'a> {
    Ours(Robots),
    Texting(Option<texting_robots::Robot>),
    /// The Google port keeps nothing.
    Port,
    /// fast-robots borrows the text it parsed.
    Fast(fast_robots::RobotsTxt<'a>),
}

impl Parsed<'_> {
    /// The bytes of the parsed value itself, outside its allocations.
    fn inline_size(&self) -> usize {
        match self {
            Parsed::Ours(robots) => std::mem::size_of_val(robots),
            Parsed::Texting(robot) => std::mem::size_of_val(robot),
            Parsed::Port => 0,
            Parsed::Fast(robots) => std::mem::size_of_val(robots),
        }
    }
}

/// Parses one body with `lib`.
fn parse(lib: Lib, body: &Body) -> Parsed<'_> {
    match lib {
        Lib::OursRfc | Lib::OursGoogle => {
            Parsed::Ours(Robots::parse_with(&body.bytes, &options(lib)))
        }
        Lib::Texting => Parsed::Texting(texting_robots::Robot::new("ExampleBot", &body.bytes).ok()),
        Lib::Google => {
            if body.port_ok {
                google_robotstxt::parse_robotstxt(&body.text, &mut Discard);
            }
            Parsed::Port
        }
        Lib::Fast => Parsed::Fast(fast_robots::RobotsTxt::parse(&body.text)),
    }
}

/// Times checking every URL of `file` for `agent`, `reps` times over,
/// after one untimed pass over them (one check, for the Google port);
/// returns ns per check and the number of disallowed answers.
fn check(lib: Lib, file: &CheckFile, agent: &str, reps: usize) -> (f64, usize) {
    // `pass` checks the timed URLs once and counts the disallowed; `warm`
    // is the untimed start.
    let timed = |checks: usize, warm: &dyn Fn() -> usize, pass: &dyn Fn() -> usize| {
        std::hint::black_box(warm());
        let start = Instant::now();
        let disallowed: usize = (0..reps).map(|_| pass()).sum();
        (
            start.elapsed().as_nanos() as f64 / (checks * reps) as f64,
            disallowed / reps,
        )
    };
    match lib {
        Lib::OursRfc | Lib::OursGoogle => {
            let robots = Robots::parse_with(&file.body.bytes, &options(lib));
            let rules: Rules = robots.rules_for(agent).unwrap();
            let pass = || file.urls.iter().filter(|u| !rules.can_fetch(u)).count();
            timed(file.urls.len(), &pass, &pass)
        }
        Lib::Texting => {
            let Ok(robot) = texting_robots::Robot::new(agent, &file.body.bytes) else {
                return (f64::NAN, 0);
            };
            let pass = || file.urls.iter().filter(|u| !robot.allowed(u)).count();
            timed(file.urls.len(), &pass, &pass)
        }
        Lib::Google => {
            if !file.body.port_ok {
                return (f64::NAN, 0);
            }
            // The port has no parse-once API: every check parses, so a
            // sample of 4 URLs per file stands for the 20, after one check
            // untimed.
            let allowed = |url: &String| {
                let mut m = google_robotstxt::DefaultMatcher::default();
                m.one_agent_allowed_by_robots(&file.body.text, agent, url)
            };
            let sample = &file.urls[..file.urls.len().min(4)];
            timed(
                sample.len(),
                &|| sample.iter().take(1).filter(|u| !allowed(u)).count(),
                &|| sample.iter().filter(|u| !allowed(u)).count(),
            )
        }
        Lib::Fast => {
            let robots = fast_robots::RobotsTxt::parse(&file.body.text);
            let matcher = robots.matcher();
            let pass = || {
                (file.paths.iter())
                    .filter(|p| !matcher.is_allowed(agent, p))
                    .count()
            };
            timed(file.paths.len(), &pass, &pass)
        }
    }
}

/// Checks over rules parsed beforehand and used in turn, as a crawler
/// meets them: each pass checks, for one agent after the other, every
/// file's 20 URLs, so a file's rules have left the CPU cache by the time
/// they come round again. Mean per check, median of `rounds` passes after
/// one warm-up pass, the libraries taking turns; robotstxt calls
/// `Rules::prefetch` before each batch of 20. A file a library cannot
/// parse for an agent is skipped for that agent. The Google port has no
/// parse-once API: it is not measured here.
fn cold_checks(libs: &[Lib], workload: &[CheckFile], rounds: usize) -> Vec<(Lib, f64)> {
    const AGENTS: [&str; 2] = ["ExampleBot", "Googlebot"];
    let measured: Vec<Lib> = libs.iter().copied().filter(|&l| l != Lib::Google).collect();
    let wanted = |lib: Lib| measured.contains(&lib);
    let ours = |lib: Lib| -> Vec<[Rules; 2]> {
        if !wanted(lib) {
            return Vec::new();
        }
        workload
            .iter()
            .map(|f| {
                let robots = Robots::parse_with(&f.body.bytes, &options(lib));
                AGENTS.map(|a| robots.rules_for(a).unwrap())
            })
            .collect()
    };
    let (rfc, google) = (ours(Lib::OursRfc), ours(Lib::OursGoogle));
    let texting: Vec<[Option<texting_robots::Robot>; 2]> = if wanted(Lib::Texting) {
        workload
            .iter()
            .map(|f| AGENTS.map(|a| texting_robots::Robot::new(a, &f.body.bytes).ok()))
            .collect()
    } else {
        Vec::new()
    };
    let fast_files: Vec<fast_robots::RobotsTxt> = if wanted(Lib::Fast) {
        workload
            .iter()
            .map(|f| fast_robots::RobotsTxt::parse(&f.body.text))
            .collect()
    } else {
        Vec::new()
    };
    let fast: Vec<fast_robots::RobotsMatcher> = fast_files.iter().map(|r| r.matcher()).collect();
    // One pass: its time in ns and how many checks it made.
    let pass = |lib: Lib| -> (f64, usize) {
        let (mut checks, mut allowed) = (0, 0);
        let start = Instant::now();
        for (a, agent) in AGENTS.iter().enumerate() {
            for (i, file) in workload.iter().enumerate() {
                match lib {
                    Lib::OursRfc | Lib::OursGoogle => {
                        let rules = if lib == Lib::OursRfc { &rfc } else { &google };
                        // A file's URLs come as a batch: the API for that.
                        rules[i][a].prefetch();
                        for url in &file.urls {
                            allowed += usize::from(rules[i][a].can_fetch(url));
                        }
                    }
                    Lib::Texting => {
                        let Some(robot) = &texting[i][a] else {
                            continue;
                        };
                        for url in &file.urls {
                            allowed += usize::from(robot.allowed(url));
                        }
                    }
                    Lib::Fast => {
                        for path in &file.paths {
                            allowed += usize::from(fast[i].is_allowed(agent, path));
                        }
                    }
                    Lib::Google => unreachable!("not measured"),
                }
                checks += file.urls.len();
            }
        }
        std::hint::black_box(allowed);
        (start.elapsed().as_nanos() as f64, checks)
    };
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); measured.len()];
    for round in 0..=rounds {
        for i in 0..measured.len() {
            let at = (i + round) % measured.len();
            let (ns, checks) = pass(measured[at]);
            if round > 0 {
                times[at].push(ns / checks as f64);
            }
        }
    }
    measured
        .into_iter()
        .zip(times)
        .map(|(lib, mut t)| (lib, median(&mut t)))
        .collect()
}

/// Per corpus file, the URLs a first-answer pass asks, and their paths:
/// the file's own workload URLs where it has some, else `/` and then
/// paths of the workload's other URLs taken in turn (so that every file
/// gets ordinary, varied questions).
fn first_answer_urls(names: &[String], rows: &[Vec<String>]) -> Vec<(Vec<String>, Vec<String>)> {
    let all: Vec<String> = rows.iter().map(|r| path_of(&r[2])).collect();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let own: Vec<String> = (rows.iter())
                .filter(|r| &r[0] == name)
                .map(|r| r[2].clone())
                .take(FIRST_ANSWER_CHECKS[2])
                .collect();
            let urls: Vec<String> = if own.is_empty() {
                let borrowed = (1..FIRST_ANSWER_CHECKS[2])
                    .map(|k| format!("https://www.example.com{}", all[(i * 19 + k) % all.len()]));
                std::iter::once("https://www.example.com/".to_owned())
                    .chain(borrowed)
                    .collect()
            } else {
                own
            };
            let paths = urls.iter().map(|u| path_of(u)).collect();
            (urls, paths)
        })
        .collect()
}

/// How many checks a first-answer pass makes per file, row by row.
const FIRST_ANSWER_CHECKS: [usize; 3] = [1, 5, 20];

/// One file's first answers with `lib`: parse, select for ExampleBot, ask
/// the first `n` URLs; how many were allowed.
fn first_answer(
    lib: Lib,
    body: &Body,
    (urls, paths): &(Vec<String>, Vec<String>),
    n: usize,
) -> usize {
    const AGENT: &str = "ExampleBot";
    match lib {
        Lib::OursRfc | Lib::OursGoogle => {
            let robots = Robots::parse_with(&body.bytes, &options(lib));
            let rules = robots.rules_for(AGENT).unwrap();
            urls[..n].iter().filter(|u| rules.can_fetch(u)).count()
        }
        Lib::Texting => match texting_robots::Robot::new(AGENT, &body.bytes) {
            Ok(robot) => urls[..n].iter().filter(|u| robot.allowed(u)).count(),
            Err(_) => 0,
        },
        // No parse-once API: every answer parses.
        Lib::Google if body.port_ok => (urls[..n].iter())
            .filter(|u| {
                let mut m = google_robotstxt::DefaultMatcher::default();
                m.one_agent_allowed_by_robots(&body.text, AGENT, u)
            })
            .count(),
        Lib::Google => 0,
        Lib::Fast => {
            let robots = fast_robots::RobotsTxt::parse(&body.text);
            let matcher = robots.matcher();
            paths[..n]
                .iter()
                .filter(|p| matcher.is_allowed(AGENT, p))
                .count()
        }
    }
}

// ---- statistics and report ----

/// Per library, the median of `rounds` samples after one untimed round,
/// the libraries taking turns in an order that rotates: a single run pays for
/// first use (page faults, buffers grown), which decided the figure of
/// whichever library came first.
fn median_of_rounds(
    libs: &[Lib],
    rounds: usize,
    mut sample: impl FnMut(Lib) -> f64,
) -> Vec<(Lib, f64, String)> {
    let mut samples = vec![Vec::new(); libs.len()];
    for round in 0..=rounds {
        // Each library follows a different one from round to round.
        for i in 0..libs.len() {
            let at = (i + round) % libs.len();
            let time = sample(libs[at]);
            if round > 0 {
                samples[at].push(time);
            }
        }
    }
    libs.iter()
        .zip(&mut samples)
        .map(|(&lib, times)| {
            let ns = median(times);
            (lib, ns, fmt_ns(ns))
        })
        .collect()
}

/// The bytes `keep` leaves over the corpus, all kept alive at once: what
/// each call allocates and each value's `inline` size, not the vector
/// holding them.
fn retained<'a, T>(
    corpus: &'a [Body],
    keep: impl Fn(&'a Body) -> T,
    inline: impl Fn(&T) -> usize,
) -> f64 {
    let mut kept = Vec::with_capacity(corpus.len());
    let before = LIVE.load(Ordering::Relaxed);
    kept.extend(corpus.iter().map(keep));
    let allocated = (LIVE.load(Ordering::Relaxed) - before) as f64;
    allocated + kept.iter().map(inline).sum::<usize>() as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

struct Report(String);

impl Report {
    fn line(&mut self, s: impl AsRef<str>) {
        println!("{}", s.as_ref());
        self.0 += s.as_ref();
        self.0.push('\n');
    }
}

/// `ours / peer` for "higher is better", or `peer / ours` for times.
fn ratio(ours: f64, peer: f64, higher_better: bool) -> String {
    let r = if higher_better {
        ours / peer
    } else {
        peer / ours
    };
    if r.is_finite() {
        format!("{r:.1}×")
    } else {
        "–".into()
    }
}

fn table(
    report: &mut Report,
    title: &str,
    unit: &str,
    higher_better: bool,
    values: &[(Lib, f64, String)],
) {
    report.line(format!("\n### {title}\n"));
    let peers: Vec<Lib> = PEERS.to_vec();
    let mut header = format!("| library | {unit} |");
    let mut rule = "|---|---:|".to_owned();
    for p in &peers {
        header += &format!(" vs {} |", p.name());
        rule += "---:|";
    }
    report.line(header);
    report.line(rule);
    let get = |lib: Lib| values.iter().find(|v| v.0 == lib).map_or(f64::NAN, |v| v.1);
    for (lib, value, shown) in values {
        let mut row = format!("| {} | {shown} |", lib.name());
        for p in &peers {
            row += &if matches!(lib, Lib::OursRfc | Lib::OursGoogle) {
                format!(" {} |", ratio(*value, get(*p), higher_better))
            } else {
                " |".to_owned()
            };
        }
        report.line(row);
    }
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = common::rounds();
    let out = common::arg("--out");
    let mut report = Report(String::new());
    // `--ours`: robotstxt alone, for a quick look while optimising.
    let libs: Vec<Lib> = if args.iter().any(|a| a == "--ours") {
        vec![Lib::OursRfc, Lib::OursGoogle]
    } else {
        ALL_LIBS.to_vec()
    };
    let libs = &libs[..];

    std::panic::set_hook(Box::new(|_| {}));
    let corpus: Vec<Body> = tsv("parse_files.tsv")
        .iter()
        .map(|r| Body::new(read(&r[0])))
        .collect();
    let input_bytes: usize = corpus.iter().map(|b| b.bytes.len()).sum();
    let workload = check_files(tsv("check_urls.tsv"), 0, 2);
    let worst = check_files(tsv("worst_cases.tsv"), 1, 3);
    drop(std::panic::take_hook());
    let port_skipped = corpus.iter().filter(|b| !b.port_ok).count();

    report.line("## Rust: robotstxt against the crates a user would otherwise pick\n");
    report.line(format!(
        "Inputs: {} corpus files capped at 512,000 bytes ({} bytes); {} files × 20 URLs × 2 agents \
         (ExampleBot, Googlebot); the worst cases. {rounds} rounds, libraries interleaved. \
         Ratios are ours ÷ peer for speed, from the same run; \"×\" > 1 means robotstxt is faster. \
         Machine: {} cores. Command: `cargo bench --bench compare`.",
        corpus.len(),
        input_bytes,
        workload.len(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    ));

    // Parse throughput.
    let mut mbs: Vec<(Lib, Vec<f64>)> = libs.iter().map(|&l| (l, Vec::new())).collect();
    for round in 0..rounds {
        for i in 0..libs.len() {
            let lib = libs[(i + round) % libs.len()];
            let start = Instant::now();
            for body in &corpus {
                std::hint::black_box(parse(lib, body));
            }
            let secs = start.elapsed().as_secs_f64();
            let bytes: usize = corpus
                .iter()
                .filter(|b| lib != Lib::Google || b.port_ok)
                .map(|b| b.bytes.len())
                .sum();
            mbs.iter_mut()
                .find(|m| m.0 == lib)
                .unwrap()
                .1
                .push(bytes as f64 / secs / 1e6);
        }
    }
    let rows: Vec<(Lib, f64, String)> = mbs
        .iter_mut()
        .map(|(lib, v)| {
            let (min, max) = (
                v.iter().cloned().fold(f64::INFINITY, f64::min),
                v.iter().cloned().fold(0.0, f64::max),
            );
            let m = median(v);
            (*lib, m, format!("{m:.0} MB/s ({min:.0}–{max:.0})"))
        })
        .collect();
    report.line(format!(
        "\nThe Google port panics on {port_skipped} corpus files; its figures leave them out."
    ));
    table(
        &mut report,
        "Parse throughput over the whole corpus (median of rounds, min–max)",
        "MB/s",
        true,
        &rows,
    );

    // Per-file parse median.
    let rows: Vec<(Lib, f64, String)> = libs
        .iter()
        .map(|&lib| {
            let mut times: Vec<f64> = corpus
                .iter()
                .filter(|b| lib != Lib::Google || b.port_ok)
                .map(|body| {
                    let start = Instant::now();
                    std::hint::black_box(parse(lib, body));
                    start.elapsed().as_nanos() as f64
                })
                .collect();
            let m = median(&mut times);
            (lib, m, fmt_ns(m))
        })
        .collect();
    table(
        &mut report,
        "Parse time per file (median over the corpus)",
        "time",
        false,
        &rows,
    );

    // Checks.
    let mut whole: Vec<(Lib, f64)> = Vec::new();
    let mut per_file: Vec<(Lib, f64)> = Vec::new();
    let mut large: Vec<(Lib, f64)> = Vec::new();
    // Per library: the time per check of each file it could check.
    let mut file_times: Vec<Vec<(usize, f64)>> = vec![Vec::new(); libs.len()];
    // The libraries take turns file by file, in an order shuffled anew for
    // each file, so that none always runs first or after the same other.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut order: Vec<usize> = (0..libs.len()).collect();
    for (f, file) in workload.iter().enumerate() {
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        for &at in &order {
            let lib = libs[at];
            let reps = if lib == Lib::Google { 1 } else { 20 };
            let mut file_ns = 0.0;
            for agent in ["ExampleBot", "Googlebot"] {
                let (ns, _) = check(lib, file, agent, reps);
                file_ns += ns / 2.0;
            }
            if !file_ns.is_nan() {
                file_times[at].push((f, file_ns));
            }
        }
    }
    for (&lib, times) in libs.iter().zip(&file_times) {
        let urls = |f: usize| workload[f].urls.len() as f64;
        let checked: f64 = times.iter().map(|&(f, _)| urls(f)).sum();
        let total_ns: f64 = times.iter().map(|&(f, ns)| ns * urls(f)).sum();
        let big: Vec<(usize, f64)> = times
            .iter()
            .copied()
            .filter(|&(f, _)| workload[f].body.bytes.len() >= 65_536)
            .collect();
        let large_ns: f64 = big.iter().map(|&(f, ns)| ns * urls(f)).sum();
        let large_n: f64 = big.iter().map(|&(f, _)| urls(f)).sum();
        let mut medians: Vec<f64> = times.iter().map(|&(_, ns)| ns).collect();
        whole.push((lib, total_ns / checked));
        per_file.push((lib, median(&mut medians)));
        large.push((lib, large_ns / large_n));
    }
    let show = |v: &[(Lib, f64)]| {
        v.iter()
            .map(|&(l, x)| (l, x, fmt_ns(x)))
            .collect::<Vec<_>>()
    };
    report.line(
        "\n(The next three tables: per file and agent, the rules are parsed and selected \
         and the file's 20 URLs checked once, untimed; then the 20 URLs are checked 20 times \
         over in one timing. One pass over the workload, the libraries taking turns file by \
         file. The Google port, which parses on every check, checks 4 of the 20 URLs once, \
         after one check untimed.)",
    );
    table(
        &mut report,
        "Check time, whole workload (mean per check)",
        "time",
        false,
        &show(&whole),
    );
    table(
        &mut report,
        "Check time, per-file median",
        "time",
        false,
        &show(&per_file),
    );
    table(
        &mut report,
        "Check time on the files ≥ 64 KiB (mean per check)",
        "time",
        false,
        &show(&large),
    );

    let cold = cold_checks(libs, &workload, rounds);
    report.line(
        "\n(The next table: rules parsed beforehand; each pass checks every file's 20 URLs for \
         one agent, then for the other, so that the rules are out of the CPU cache when their \
         turn comes, as on a crawler visiting many sites. robotstxt calls `Rules::prefetch` \
         before each file's 20 checks. The Google port, which has no parse-once API, is left \
         out.)",
    );
    table(
        &mut report,
        "Check time over rules not used lately, whole workload (mean per check, median of rounds)",
        "time",
        false,
        &show(&cold),
    );

    // Worst cases.
    for file in &worst {
        let title = if file.name.contains("pathological") {
            "pathological.txt"
        } else {
            "the largest file"
        };
        // A sample parses the file as often as 5 ms allow (once at least),
        // mean per parse: one parse of a few hundred microseconds showed
        // page faults and the like as a round's time.
        let rows = median_of_rounds(libs, rounds, |lib| {
            let start = Instant::now();
            let mut parses = 0u32;
            while parses == 0 || start.elapsed() < Duration::from_millis(5) {
                std::hint::black_box(parse(lib, &file.body));
                parses += 1;
            }
            start.elapsed().as_nanos() as f64 / f64::from(parses)
        });
        table(
            &mut report,
            &format!("Worst case: parse {title} (mean per parse, median of rounds)"),
            "time",
            false,
            &rows,
        );
        let pathological = file.name.contains("pathological");
        // One check of the port against pathological.txt takes minutes
        // (165 s when measured): it is left out.
        let checked: Vec<Lib> = libs
            .iter()
            .copied()
            .filter(|&lib| !(pathological && lib == Lib::Google))
            .collect();
        // Each sample checks the URLs once, on rules parsed afresh, after
        // the untimed pass `check` makes: 20 checks take microseconds, too
        // short to absorb bringing the library's code back into the CPU
        // caches the other libraries evicted.
        let rows = median_of_rounds(&checked, rounds, |lib| check(lib, file, "ExampleBot", 1).0);
        if pathological {
            report.line("\n(The Google port is left out of the next table: one check took 165 s.)");
        }
        table(
            &mut report,
            &format!("Worst case: check against {title} (mean per URL, median of rounds)"),
            "time",
            false,
            &rows,
        );
    }

    // First answers: the whole visit to a site's robots.txt.
    let names: Vec<String> = tsv("parse_files.tsv")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let questions = first_answer_urls(&names, &tsv("check_urls.tsv"));
    report.line(
        "\n(The next tables: for every corpus file, parse, select the rules for ExampleBot and \
         answer the file's first 1, 5 or 20 URLs: its own workload URLs where the workload has \
         some, else `/` and then paths of the workload's other URLs. One timed pass over the \
         whole corpus, median of rounds, the libraries taking turns. The Google port parses on \
         every check and leaves out the files it panics on; it is left out of the 5- and \
         20-check tables, where some URLs take it seconds a file (108 s and 198 s a pass in a \
         trial run).)",
    );
    // The Google port parses the whole file again for each check, and some
    // of the workload's URLs take it seconds a file: a pass of 5 checks
    // took it 108 s, of 20, 198 s, in a trial run. It answers the first
    // URL of each file only.
    let port_once: Vec<Lib> = libs.iter().copied().filter(|&l| l != Lib::Google).collect();
    for n in FIRST_ANSWER_CHECKS {
        let libs = if n == 1 { libs } else { &port_once[..] };
        let rows = median_of_rounds(libs, rounds, |lib| {
            let start = Instant::now();
            let allowed: usize = (corpus.iter().zip(&questions))
                .map(|(body, q)| first_answer(lib, body, q, n))
                .sum();
            std::hint::black_box(allowed);
            start.elapsed().as_nanos() as f64
        });
        let check = if n == 1 { "check" } else { "checks" };
        table(
            &mut report,
            &format!("First answer: parse, select and {n} {check} per file, whole corpus"),
            "time per pass",
            false,
            &rows,
        );
    }

    // Retained memory: parse the whole corpus and keep it alive.
    let rows: Vec<(Lib, f64, String)> = libs
        .iter()
        .filter(|&&l| l != Lib::Google)
        .map(|&lib| {
            // fast-robots borrows the text: its retained bytes are its own.
            let x = retained(&corpus, |b| parse(lib, b), Parsed::inline_size) / input_bytes as f64;
            (lib, x, format!("{x:.2}× input"))
        })
        .collect();
    report.line("\n(The Google port keeps nothing: it parses on every check.)");
    table(
        &mut report,
        "Bytes retained after parsing the whole corpus, ÷ input bytes",
        "ratio",
        false,
        &rows,
    );
    // texting_robots compiles one agent's rules as it parses; robotstxt
    // compiles them in `rules_for`: the same with those kept too.
    let with_rules: Vec<String> = [Lib::OursRfc, Lib::OursGoogle]
        .into_iter()
        .filter(|lib| libs.contains(lib))
        .map(|lib| {
            let with_rules = |b: &Body| {
                let robots = Robots::parse_with(&b.bytes, &options(lib));
                let rules = robots.rules_for("ExampleBot").unwrap();
                (robots, rules)
            };
            let bytes = retained(&corpus, with_rules, std::mem::size_of_val);
            format!("{} {:.2}×", lib.name(), bytes / input_bytes as f64)
        })
        .collect();
    if !with_rules.is_empty() {
        report.line(format!(
            "\ntexting_robots compiles one agent's rules as it parses; robotstxt does so in \
             `rules_for`. With each file's ExampleBot rules kept as well: {}. fast-robots \
             borrows the text it parsed, which its caller keeps too (1.00× more).",
            with_rules.join(", ")
        ));
    }

    // Allocations per check.
    let mut allocs = Vec::new();
    for &lib in &[Lib::OursRfc, Lib::OursGoogle] {
        let (mut n, mut checks) = (0usize, 0usize);
        for file in &workload {
            let robots = Robots::parse_with(&file.body.bytes, &options(lib));
            let rules = robots.rules_for("ExampleBot").unwrap();
            // The index, built once per selection after its first few
            // checks, is the selection's: built here beforehand.
            rules.compile();
            let before = ALLOCS.load(Ordering::Relaxed);
            for url in &file.urls {
                std::hint::black_box(rules.decide(url));
            }
            n += ALLOCS.load(Ordering::Relaxed) - before;
            checks += file.urls.len();
        }
        allocs.push(format!(
            "{}: {n} allocations in {checks} checks",
            lib.name()
        ));
    }
    report.line("\n### Allocations per check\n");
    report.line(
        "Each selection's index built beforehand (`Rules::compile`; else the check after its \
         first few builds it, once), then every URL of the workload decided.\n",
    );
    for a in allocs {
        report.line(format!("- {a}"));
    }
    let _ = Duration::ZERO;
    if let Some(path) = out {
        std::fs::write(&path, &report.0).unwrap();
        eprintln!("wrote {path}");
    }
}
