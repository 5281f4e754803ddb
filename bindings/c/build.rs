//! Gives the C shared library (`librobotstxt.so`) its soname, so programs
//! linked against it load `librobotstxt.so.<major>` (see `make install`).
//! Only the cdylib gets the flag; the rlib and staticlib are untouched.
//! The major version is this crate's, which moves with the engine's.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default();
    // ELF platforms whose linkers take -soname; macOS uses install names.
    if matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,librobotstxt.so.{major}");
    }
}
