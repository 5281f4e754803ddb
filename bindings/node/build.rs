fn main() {
    napi_build::setup();
    // macOS: the addon's install name, which the linker otherwise takes
    // from the build folder's absolute path.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("macos") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/robotstxt.node");
    }
}
