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

/// Every source file under `src/` with its text.
fn sources() -> Vec<(PathBuf, String)> {
    files(&["src"], &[".rs"])
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Whether `text` defines the item `name` of one of `kinds` (`fn`, `struct`, `mod`, ...).
fn defines(text: &str, kinds: &[&str], name: &str) -> bool {
    kinds.iter().any(|k| {
        text.match_indices(&format!("{k} {name}")).any(|(at, m)| {
            !text[at + m.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    })
}

/// The guide to adding a game stays true: each file it names exists, and each helper it names
/// (`Type`, `Type::method`, `Type.field`, `module::function`, `macro!`) is defined in `src/`.
#[test]
fn the_guide_to_adding_a_game_names_what_exists() {
    let guide = std::fs::read_to_string("docs/adding-a-game.md").unwrap();
    let sources = sources();
    let file_of = |name: &str| -> Vec<&String> {
        sources
            .iter()
            .filter(|(_, t)| defines(t, &["struct", "enum", "trait", "type"], name))
            .map(|(_, t)| t)
            .collect()
    };
    let mut missing = Vec::new();
    let mut checked = 0;
    for (i, span) in guide.split('`').enumerate() {
        if i % 2 == 0 || span.contains(' ') || span.contains('<') || span.is_empty() {
            continue;
        }
        let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
        let capital = |s: &str| s.starts_with(|c: char| c.is_ascii_uppercase());
        let path = [".rs", ".md", ".json"].iter().any(|e| span.ends_with(e));
        let found = if path || span.contains('/') {
            Path::new(span).exists()
        } else if let Some(name) = span.strip_suffix('!') {
            sources
                .iter()
                .any(|(_, t)| t.contains(&format!("macro_rules! {name}")))
        } else if let Some((owner, item)) = span.split_once("::").or(span.split_once('.')) {
            if !(ident(owner) && ident(item)) {
                continue;
            }
            let field = span.contains('.');
            if capital(owner) {
                let item_kinds: &[&str] = if field { &["pub"] } else { &["fn"] };
                let item = if field {
                    format!("{item}:")
                } else {
                    item.to_string()
                };
                file_of(owner).into_iter().any(|t| {
                    if field {
                        t.contains(&format!("pub {item}"))
                    } else {
                        defines(t, item_kinds, &item)
                    }
                })
            } else {
                sources.iter().any(|(p, t)| {
                    let module = p.file_stem().is_some_and(|s| s == owner)
                        || p.parent().is_some_and(|d| d.ends_with(owner));
                    module && defines(t, &["fn", "mod", "struct"], item)
                })
            }
        } else if ident(span) && capital(span) {
            !file_of(span).is_empty()
        } else {
            continue;
        };
        checked += 1;
        if !found {
            missing.push(span.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "the guide names what does not exist: {missing:?}"
    );
    assert!(checked > 60, "{checked} names checked");
}
