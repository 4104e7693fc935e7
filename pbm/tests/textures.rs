//! Texel conversions, mip chains, swizzle and UV scroll.

use pbm::format::{AlphaMode, TextureFormat};
use pbm::scroll::{effective_speed, scroll_offset};
use pbm::texture::*;
use proptest::prelude::*;

#[test]
fn every_16_bit_texel_survives_unpack_then_pack() {
    for p in 0..=u16::MAX {
        assert_eq!(pack_5551(unpack_5551(p)), p, "5551 {p:#06x}");
        assert_eq!(pack_4444(unpack_4444(p)), p, "4444 {p:#06x}");
        assert_eq!(pack_565(unpack_565(p)), p, "565 {p:#06x}");
    }
}

#[test]
fn reference_5551_packing() {
    assert_eq!(pack_5551([255, 0, 0, 255]), 0x801F);
    assert_eq!(pack_5551([0, 255, 0, 127]), 0x03E0);
    assert_eq!(pack_5551([0, 0, 255, 128]), 0xFC00);
    assert_eq!(unpack_5551(0x801F), [255, 0, 0, 255]);
    assert_eq!(unpack_565(0xFFFF), [255, 255, 255, 255]);
}

proptest! {
    #[test]
    fn rgba8_round_trips_within_quantisation(px in proptest::collection::vec(any::<u8>(), 0..64).prop_map(|mut v| { v.truncate(v.len() / 4 * 4); v })) {
        for (format, step) in [(TextureFormat::Rgba8888, [0u8, 0, 0, 0]), (TextureFormat::Rgba5551, [7, 7, 7, 127]), (TextureFormat::Rgba4444, [15, 15, 15, 15]), (TextureFormat::Rgb565, [7, 3, 7, 255])] {
            let stored = encode(&px, format);
            prop_assert_eq!(stored.len(), px.len() / 4 * format.bytes_per_pixel() as usize);
            let back = decode(&stored, format);
            prop_assert_eq!(back.len(), px.len());
            for (i, (a, b)) in px.iter().zip(&back).enumerate() {
                prop_assert!(u16::from(a.abs_diff(*b)) <= u16::from(step[i % 4]) + 1, "{:?} channel {}: {} → {}", format, i % 4, a, b);
            }
        }
    }

    #[test]
    fn unswizzle_undoes_swizzle(bx in 1usize..5, by in 1usize..5, seed in any::<u8>()) {
        let (w, h) = (bx * 16, by * 8);
        let src: Vec<u8> = (0..w * h).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect();
        let s = swizzle(&src, w, h).expect("fits");
        prop_assert_eq!(unswizzle(&s, w, h).expect("fits"), src);
    }
}

#[test]
fn swizzle_stores_16_byte_by_8_row_blocks_row_major() {
    let (w, h) = (32usize, 16usize);
    let src: Vec<u8> = (0..w * h).map(|i| i as u8).collect();
    let s = swizzle(&src, w, h).expect("fits");
    // Block (0,0): rows 0..8, bytes 0..16.
    assert_eq!(&s[0..16], &src[0..16]);
    assert_eq!(&s[16..32], &src[32..48]);
    // Block (1,0) follows block (0,0): rows 0..8, bytes 16..32.
    assert_eq!(&s[128..144], &src[16..32]);
    // Block (0,1): rows 8..16.
    assert_eq!(&s[256..272], &src[8 * 32..8 * 32 + 16]);
    assert!(swizzle(&src[..100], 10, 10).is_err());
}

#[test]
fn mip_chains_stop_at_16_pixels() {
    let sides = |w: u32, h: u32| {
        mip_chain(&vec![255; (w * h * 4) as usize], w, h, AlphaMode::None)
            .iter()
            .map(|l| (l.width, l.height))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        sides(512, 512),
        [
            (512, 512),
            (256, 256),
            (128, 128),
            (64, 64),
            (32, 32),
            (16, 16)
        ]
    );
    assert_eq!(sides(64, 32), [(64, 32), (32, 16)]);
    assert_eq!(sides(16, 16), [(16, 16)]);
    assert_eq!(sides(8, 8), [(8, 8)]);
}

fn image(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .flat_map(|(x, y)| f(x, y))
        .collect()
}

#[test]
fn cutout_mips_keep_any_opaque_texel() {
    // One opaque red texel per 2×2 block: CUTOUT keeps every block opaque and red;
    // BLEND averages alpha and keeps the colour of the visible texel.
    let img = image(32, 32, |x, y| {
        if x % 2 == 0 && y % 2 == 0 {
            [255, 0, 0, 255]
        } else {
            [0, 0, 255, 0]
        }
    });
    let cut = downsample(&img, 32, 32, AlphaMode::Cutout);
    assert!(cut.rgba.chunks(4).all(|p| p == [255, 0, 0, 255]));
    let blend = downsample(&img, 32, 32, AlphaMode::Blend);
    for p in blend.rgba.chunks(4) {
        assert_eq!(p[3], 64);
        assert!(
            p[0] > 200 && p[2] < 60,
            "transparent texels do not tint: {p:?}"
        );
    }
    let opaque = image(32, 32, |x, _| {
        if x % 2 == 0 {
            [200, 100, 0, 255]
        } else {
            [0, 100, 200, 255]
        }
    });
    let box_ = downsample(&opaque, 32, 32, AlphaMode::None);
    assert!(box_.rgba.chunks(4).all(|p| p == [100, 100, 100, 255]));
}

#[test]
fn uv_scroll_wraps_and_never_touches_atlases() {
    // The pattern travels along the speed, so the coordinates move against it:
    // falling water (negative V) samples further up as time goes on.
    assert_eq!(scroll_offset(1.0, [0.0, -0.25]), [0.0, 0.25]);
    assert_eq!(scroll_offset(2.5, [0.5, 1.0]), [0.75, 0.5]);
    assert_eq!(scroll_offset(0.5, [0.25, 0.0]), [0.875, 0.0]);
    // Hours of clock keep their precision.
    let t = 10.0 * 3600.0 + 0.1;
    let [u, _] = scroll_offset(t, [0.3, 0.0]);
    assert!(
        (f64::from(u) - (-t * 0.3f32 as f64).rem_euclid(1.0)).abs() < 1e-5,
        "{u}"
    );
    for t in [0.0, 0.333, 17.9, 1e7] {
        for s in [-3.7f32, -0.5, 0.0, 0.01, 2.0] {
            let [u, v] = scroll_offset(t, [s, -s]);
            assert!(
                (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v),
                "t={t} s={s}: {u} {v}"
            );
        }
    }
    assert_eq!(
        effective_speed(Some("TileAtlas_0"), [0.0, -0.5]),
        [0.0, 0.0]
    );
    assert_eq!(effective_speed(None, [1.0, 0.0]), [0.0, 0.0]);
    assert_eq!(effective_speed(Some("WaterSoft"), [0.0, -0.5]), [0.0, -0.5]);
    assert!(pbm::format::is_atlas_name("Foo_TileAtlas_3") && !pbm::format::is_atlas_name("Tile"));
}

#[test]
fn compliance_flags_what_a_conforming_map_may_not_show() {
    use pbm::compliance::{ComplianceIssue, check};
    let read = |name: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(format!("{name}.pbm"));
        pbm::Map::read(&std::fs::read(path).expect("fixture"))
            .expect("loads")
            .0
    };
    assert_eq!(check(&read("full")), []);
    assert!(
        check(&read("full_v2"))
            .iter()
            .any(|i| matches!(i, ComplianceIssue::NotV3 { version: 2, .. }))
    );
    let emitters = check(&read("full_emitters"));
    assert!(
        emitters
            .iter()
            .any(|i| matches!(i, ComplianceIssue::EmitterOverBudget { count: 100, .. })),
        "{emitters:?}"
    );

    let mut map = read("full");
    map.textures[1].format = TextureFormat::Rgba5551;
    let half = map.textures[1].data.len() / 2;
    map.textures[1].data.truncate(half);
    let scrolling = map
        .meshes
        .iter()
        .position(|m| m.uv_scroll != [0.0, 0.0])
        .expect("a scrolling mesh");
    map.meshes[scrolling].texture_id = 4; // the atlas
    map.meshes[0].vertices[0].pos[1] = 50.0;
    let lump = pbm::EmitterLump::new(vec![pbm::EmitterRecord {
        texture_id: 4,
        ..Default::default()
    }]);
    map.emitters = Some(lump);
    let issues = check(&map);
    assert!(
        issues
            .iter()
            .any(|i| matches!(i, ComplianceIssue::BlendNot8888 { texture: 1, .. })),
        "{issues:?}"
    );
    assert!(
        issues
            .iter()
            .any(|i| matches!(i, ComplianceIssue::ScrollOnAtlas { .. }))
    );
    assert!(
        issues
            .iter()
            .any(|i| matches!(i, ComplianceIssue::MeshBoundsMissVertices { mesh: 0, .. }))
    );
    assert!(
        issues
            .iter()
            .any(|i| matches!(i, ComplianceIssue::EmitterUsesAtlas { .. }))
    );
    map.recompute_bounds();
    let issues = check(&map);
    assert!(!issues.iter().any(|i| matches!(
        i,
        ComplianceIssue::MeshBoundsMissVertices { .. }
            | ComplianceIssue::HeaderBoundsMissMesh { .. }
    )));
}

#[test]
fn stored_mip_chains_keep_the_format_and_level_zero() {
    let rgba = image(64, 32, |x, y| {
        [
            (x * 4) as u8,
            (y * 8) as u8,
            128,
            if (x + y) % 3 == 0 { 255 } else { 0 },
        ]
    });
    for format in [
        TextureFormat::Rgba8888,
        TextureFormat::Rgba5551,
        TextureFormat::Rgba4444,
        TextureFormat::Rgb565,
    ] {
        let stored = encode(&rgba, format);
        let chain = stored_mip_chain(&stored, 64, 32, format, AlphaMode::Cutout);
        assert_eq!(chain.len(), 2);
        assert_eq!(chain[0].data, stored);
        assert_eq!((chain[1].width, chain[1].height), (32, 16));
        assert_eq!(
            chain[1].data.len(),
            32 * 16 * format.bytes_per_pixel() as usize
        );
    }
}
