//! Questions allocate nothing: `can_fetch`, `decide` and `crawl_delay` over
//! the whole URL workload of `../shared/bench`, both profiles.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use robotstxt::{Options, Profile, Robots};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: forwards to the system allocator; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn questions_allocate_nothing() {
    // The counter works: a selection allocates.
    let probe = Robots::parse(b"User-agent: *\nDisallow: /x\n");
    assert!(allocations_in(|| drop(std::hint::black_box(probe.rules_for("a").unwrap()))) > 0);

    let mut workload = common::check_workload();
    workload.extend(common::worst_cases());
    // Long and percent-encoded paths on top of the workload's own.
    let extra = [
        format!("/{}", "a%2Fb%7e".repeat(250)),
        format!("https://x.test/{}?q=%E3%83%84*$", "ツ".repeat(300)),
        "example.com?a".to_owned(),
    ];
    let mut questions = 0;
    for profile in [Profile::Rfc9309, Profile::Google] {
        let options = Options::new(profile);
        for (file, urls) in &workload {
            let robots = Robots::parse_with(&common::read(file), &options);
            for agent in ["ExampleBot", "Googlebot"] {
                let rules = robots.rules_for(agent).unwrap();
                let mut allowed = 0;
                let n = allocations_in(|| {
                    for url in urls.iter().chain(&extra) {
                        allowed += usize::from(rules.can_fetch(url));
                        allowed += rules.decide(url).line as usize;
                        allowed += rules.crawl_delay().map_or(0, |d| d.as_millis() as usize);
                        questions += 3;
                    }
                });
                assert_eq!(n, 0, "{file} [{}] {agent}: {n} allocations", profile.name());
                std::hint::black_box(allowed);
            }
        }
    }
    assert!(
        questions > 40_000 * 2 * 2 * 3,
        "only {questions} questions asked"
    );
}
