//! Gives the C shared library (`librobotstxt.so`) its soname (and on macOS
//! its install name), so programs
//! linked against it load `librobotstxt.so.<abi>` (see `make install`): the
//! major version from 1.0 on, and before it major.minor, as a 0.x minor
//! release may break the ABI (CONTRIBUTING.md, "Versions").
//! Only the cdylib gets the flag; the rlib and staticlib are untouched.
//! The major version is this crate's, which moves with the engine's.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default();
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").unwrap_or_default();
    let abi = if major == "0" {
        format!("0.{minor}")
    } else {
        major
    };
    // ELF platforms whose linkers take -soname; macOS uses install names.
    if matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,librobotstxt.so.{abi}");
    }
    // macOS: found through the program's rpath, not the build folder's
    // absolute path, which the linker records otherwise.
    if matches!(os.as_str(), "macos" | "ios") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/librobotstxt.dylib");
    }
}
