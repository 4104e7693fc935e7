//! The user guide (`docs/user-guide.md`) names keys as `<kbd>Ctrl+D</kbd>` and menu
//! items as `**Edit › Duplicate**`; each must be in the editor's action table (a
//! shortcut, or a menu hint such as Copy's Ctrl+C; an item's label), so the guide
//! cannot promise a key or an item the editor lacks. Its pictures and links to files
//! in the repository must exist too. The README's front page links to the guide.

use std::collections::HashSet;
use std::path::Path;

use pebble_core::action::{self, ALL};
use pebble_core::create;

const MENUS: [&str; 7] = ["File", "Edit", "View", "Create", "Tools", "Help", "Deploy"];

fn guide() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/user-guide.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The texts between `open` and `close`, in order (across line breaks, which a
/// wrapped paragraph puts inside a menu path: they read as one space).
fn between(text: &str, open: &str, close: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        let after = &rest[start + open.len()..];
        let Some(end) = after.find(close) else { break };
        out.push(
            after[..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        );
        rest = &after[end + close.len()..];
    }
    out
}

/// Every key the action table gives: shortcuts, the menu's hints, the second keys.
fn keys() -> HashSet<String> {
    let mut keys: HashSet<String> = ALL
        .iter()
        .flat_map(|a| a.shortcuts().iter().map(action::shortcut_text))
        .collect();
    for a in ALL {
        let text = a.menu_text();
        if let Some(hint) = text
            .strip_suffix(')')
            .and_then(|t| t.rsplit_once("  ("))
            .map(|(_, k)| k)
        {
            keys.insert(hint.to_owned());
        }
    }
    keys
}

/// Every item label the menus show from the action table and the Create menu.
fn labels() -> HashSet<&'static str> {
    ALL.iter()
        .map(|a| a.label())
        .chain(create::all().map(create::CreateItem::label))
        .collect()
}

#[test]
fn every_key_the_guide_names_is_in_the_action_table() {
    let keys = keys();
    let named = between(&guide(), "<kbd>", "</kbd>");
    assert!(named.len() > 40, "the guide names {} keys", named.len());
    let missing: Vec<&String> = named.iter().filter(|k| !keys.contains(*k)).collect();
    assert!(
        missing.is_empty(),
        "keys the guide names that no action has: {missing:?} (the table's: {keys:?})"
    );
}

#[test]
fn every_menu_item_the_guide_names_is_in_the_action_table() {
    let labels = labels();
    let paths: Vec<String> = between(&guide(), "**", "**")
        .into_iter()
        .filter(|p| p.contains(" › "))
        .collect();
    assert!(
        paths.len() > 30,
        "the guide names {} menu items",
        paths.len()
    );
    for path in &paths {
        let parts: Vec<&str> = path.split(" › ").collect();
        assert!(
            MENUS.contains(&parts[0]),
            "{path:?} starts with no menu of the menu bar"
        );
        let item = parts[parts.len() - 1];
        assert!(
            labels.contains(item),
            "{path:?}: no action or Create item is called {item:?}"
        );
    }
}

#[test]
fn the_guide_s_pictures_and_files_exist_and_the_readme_links_to_it() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    let text = guide();
    let mut targets = between(&text, "](", ")");
    targets.retain(|t| !t.starts_with('#') && !t.contains("://"));
    assert!(targets.len() >= 8, "{targets:?}");
    for t in &targets {
        assert!(
            docs.join(t).exists(),
            "the guide links to {t}, which is not there"
        );
    }
    let readme = std::fs::read_to_string(docs.join("../README.md")).expect("the README");
    assert!(
        readme.contains("(docs/user-guide.md"),
        "the README links to the guide"
    );
}
