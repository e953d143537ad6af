//! The rules ship with the product: every rule file the code, the docs, the API and the fixtures cite
//! is in `docs/rules/`, and nothing in the repository points outside it.

use std::path::{Path, PathBuf};

/// The repository's own text files under `dirs` (recursively) with one of `endings`; the rules'
/// source texts are quoted material, not citations, and are left out.
fn files(dirs: &[&str], endings: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, endings: &[&str], out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.ends_with("docs/rules/sources") {
                continue;
            }
            if path.is_dir() {
                walk(&path, endings, out);
            } else if endings.iter().any(|e| path.to_string_lossy().ends_with(e)) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for dir in dirs {
        let path = Path::new(dir);
        if path.is_dir() {
            walk(path, endings, &mut out);
        } else {
            out.push(path.to_path_buf());
        }
    }
    out
}

/// The rule files a text cites: each `docs/rules/<name>.md` and each `<name>.md §` (the `rule` of an
/// irregularity, relative to `docs/rules/`).
fn cited(text: &str) -> Vec<String> {
    let name_before = |end: usize| {
        let start = text[..end]
            .rfind(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .map_or(0, |i| i + 1);
        &text[start..end]
    };
    let mut out = Vec::new();
    for (at, _) in text.match_indices(".md") {
        let name = name_before(at);
        let after = &text[at + 3..];
        let in_rules = text[..at - name.len()].ends_with("docs/rules/");
        if !name.is_empty() && (in_rules || after.starts_with(" §")) {
            out.push(format!("{name}.md"));
        }
    }
    out
}

fn rule_file_exists(name: &str) -> bool {
    Path::new("docs/rules").join(name).is_file()
}

#[test]
fn every_cited_rule_file_is_in_the_repository() {
    let mut missing = Vec::new();
    let mut seen = 0;
    for path in files(
        &[
            "src",
            "tests",
            "docs",
            "benches",
            "README.md",
            "CHANGELOG.md",
        ],
        &[".rs", ".md", ".js", ".html"],
    ) {
        let text = std::fs::read_to_string(&path).unwrap();
        for name in cited(&text) {
            seen += 1;
            if !rule_file_exists(&name) {
                missing.push(format!("{}: {name}", path.display()));
            }
        }
    }
    assert!(seen > 100, "the citations are found ({seen})");
    assert!(
        missing.is_empty(),
        "cited rule files missing from docs/rules/: {missing:#?}"
    );
}

#[test]
fn every_game_names_its_rule_file_in_the_repository() {
    for game in arbiter::games::all() {
        let info = game.info();
        assert!(
            Path::new(info.rules).is_file(),
            "{}: GameInfo.rules {} is not a file of the repository",
            info.id,
            info.rules
        );
        assert_eq!(info.rules, format!("docs/rules/{}.md", info.id));
        assert!(
            Path::new(&format!("docs/games/{}.md", info.id)).is_file(),
            "{}: no docs/games/{}.md",
            info.id,
            info.id
        );
    }
}

/// Every `rule` an expected irregularity of a fixture cites names a rule file that exists.
#[test]
fn every_fixture_rule_names_a_rule_file() {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("rule", serde_json::Value::String(s)) => out.push(s.clone()),
                        _ => walk(v, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut rules = Vec::new();
    for path in files(&["fixtures"], &[".json"]) {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        walk(&v, &mut rules);
    }
    assert!(!rules.is_empty(), "the fixtures cite rules");
    for rule in rules {
        let file = rule.split(' ').next().unwrap();
        assert!(
            rule_file_exists(file),
            "a fixture cites {rule}: no docs/rules/{file}"
        );
    }
}

/// Nothing in the repository points to the rules' old home outside it.
#[test]
fn no_path_outside_the_repository_is_cited() {
    let outside = ["shared/rules", "../shared", "shared/design.md"];
    for path in files(
        &[
            "src",
            "tests",
            "docs",
            "benches",
            "fixtures",
            "README.md",
            "CHANGELOG.md",
            ".ci",
        ],
        &[".rs", ".md", ".js", ".html", ".json", ".toml", "run"],
    ) {
        let text = std::fs::read_to_string(&path).unwrap();
        for o in outside {
            // This file names them to look for them.
            if path.ends_with("tests/docs.rs") {
                continue;
            }
            assert!(!text.contains(o), "{} cites {o}", path.display());
        }
    }
}
