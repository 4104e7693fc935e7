//! Names for new things that tell them apart: the second stairs is "Stairs 2",
//! not a third "Stairs copy". A name's stem is the name without a trailing
//! number or " copy", so copies of copies keep counting from the original.

/// The name's stem: "Stairs 3" → "Stairs", "Stairs copy" → "Stairs".
pub fn stem(name: &str) -> &str {
    let trimmed = name.trim_end();
    let without_copy = trimmed.strip_suffix(" copy").unwrap_or(trimmed);
    match without_copy.rsplit_once(' ') {
        Some((head, tail))
            if !head.trim().is_empty()
                && !tail.is_empty()
                && tail.chars().all(|c| c.is_ascii_digit()) =>
        {
            head
        }
        _ => without_copy,
    }
}

/// `name` itself when free (unless `numbered`: a copy always gets a number),
/// else the first of `stem 2`, `stem 3`, … that `taken` refuses.
pub fn next_free(name: &str, numbered: bool, taken: impl Fn(&str) -> bool) -> String {
    if !numbered && !taken(name) {
        return name.to_owned();
    }
    let stem = stem(name);
    (2u32..)
        .map(|n| format!("{stem} {n}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| stem.to_owned())
}

/// Names for copies of `names` (in order) in a scene that holds `existing`:
/// each the next free number of its stem, none equal to another or to an
/// existing name.
pub fn copies_of<'a>(
    names: impl IntoIterator<Item = &'a str>,
    existing: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let mut taken: std::collections::BTreeSet<String> =
        existing.into_iter().map(str::to_owned).collect();
    names
        .into_iter()
        .map(|n| {
            let name = next_free(n, true, |c| taken.contains(c));
            taken.insert(name.clone());
            name
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_count_from_the_original_whatever_was_copied() {
        assert_eq!(stem("Stairs 3"), "Stairs");
        assert_eq!(stem("Stairs copy"), "Stairs");
        assert_eq!(stem("Room 101 east"), "Room 101 east");
        assert_eq!(stem("7"), "7");
        let existing = ["Stairs", "Stairs 2", "Wall"];
        assert_eq!(
            copies_of(["Stairs", "Stairs 2", "Wall", "Stairs copy"], existing),
            ["Stairs 3", "Stairs 4", "Wall 2", "Stairs 5"]
        );
        assert_eq!(next_free("Wall", false, |n| n == "Other"), "Wall");
        assert_eq!(next_free("Wall", false, |n| n == "Wall"), "Wall 2");
        assert_eq!(next_free("Room 101", false, |_| false), "Room 101");
    }
}
