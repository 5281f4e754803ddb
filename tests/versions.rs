//! One version for every package (CONTRIBUTING.md, "Versions"): the
//! engine's crate, the C ABI crate, the Node and Python bindings' crates,
//! the npm packages (the main one, its platform packages and the versions
//! it names for them), and a CHANGELOG.md entry for it.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `version` of a manifest's `[package]` table.
fn crate_version(manifest: &Path) -> String {
    let text = fs::read_to_string(manifest).unwrap();
    let package = text
        .split("\n[")
        .find(|table| table.starts_with("package]") || table.starts_with("[package]"))
        .unwrap_or_else(|| panic!("{}: no [package]", manifest.display()));
    package
        .lines()
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{}: no version", manifest.display()))
        .to_string()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_package_has_the_engines_version() {
    let root = root();
    let version = crate_version(&root.join("Cargo.toml"));
    let mut checked = Vec::new();
    for manifest in [
        "bindings/c/Cargo.toml",
        "bindings/node/Cargo.toml",
        "bindings/python/Cargo.toml",
    ] {
        assert_eq!(crate_version(&root.join(manifest)), version, "{manifest}");
        checked.push(manifest.to_string());
    }

    let node = json(&root.join("bindings/node/package.json"));
    assert_eq!(
        node["version"],
        version.as_str(),
        "bindings/node/package.json"
    );
    checked.push("bindings/node/package.json".into());
    if let Some(optional) = node["optionalDependencies"].as_object() {
        for (name, wanted) in optional {
            assert_eq!(wanted, version.as_str(), "optionalDependencies.{name}");
        }
    }
    let platforms = root.join("bindings/node/npm");
    for entry in fs::read_dir(&platforms).unwrap() {
        let manifest = entry.unwrap().path().join("package.json");
        if manifest.exists() {
            assert_eq!(
                json(&manifest)["version"],
                version.as_str(),
                "{}",
                manifest.display()
            );
            checked.push(manifest.display().to_string());
        }
    }
    // The C ABI crate pins the engine exactly: they are released together.
    let c_manifest = fs::read_to_string(root.join("bindings/c/Cargo.toml")).unwrap();
    assert!(
        c_manifest.contains(&format!("version = \"={version}\", path = \"../..\"")),
        "bindings/c/Cargo.toml must pin robotstxt-engine at ={version}"
    );
    // The Pyodide wheel takes Cargo.toml's version when it is built.
    let wheel = fs::read_to_string(root.join("bindings/python/pyodide/build_wheel.py")).unwrap();
    assert!(
        wheel.contains("\"Cargo.toml\""),
        "bindings/python/pyodide/build_wheel.py must read Cargo.toml's version"
    );
    // The Python package takes its version from its crate (pyproject.toml
    // says so); a version written there would be a second source.
    let pyproject = fs::read_to_string(root.join("bindings/python/pyproject.toml")).unwrap();
    assert!(
        pyproject.contains("dynamic = [\"version\"]"),
        "pyproject.toml's version is not the crate's"
    );
    assert!(checked.len() >= 5, "{checked:?}");
}

#[test]
fn the_changelog_has_an_entry_for_the_version() {
    let root = root();
    let version = crate_version(&root.join("Cargo.toml"));
    let changelog = fs::read_to_string(root.join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "CHANGELOG.md has no \"## [{version}]\" entry"
    );
}
