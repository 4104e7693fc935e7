//! Fuzzes the reader and everything a consumer does with what it reads: any input
//! either fails with an error or reads, writes back, and reads again to the same map.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbm::particle::{ViewBasis, billboard, evaluate};
use pbm::{Map, MapView};

fuzz_target!(|data: &[u8]| {
    let Ok((view, _warnings)) = MapView::parse(data) else { return };
    for t in view.textures() {
        let _ = pbm::texture::decode(t.data, t.format);
    }
    let _ = view.meshes().map(|m| m.vertices().count()).sum::<usize>();
    let _ = view.colliders().map(|c| c.triangles().count()).sum::<usize>();
    let map = Map::from_view(&view);
    let _ = pbm::compliance::check(&map);
    let field = map.particle_field(&mut |_| {});
    let view_basis = ViewBasis { eye: [0.0; 3], right: [1.0, 0.0, 0.0], up: [0.0, 1.0, 0.0], forward: [0.0, 0.0, -1.0] };
    for e in &field.emitters {
        for p in field.particles_of(e) {
            let s = evaluate(e, p, 3.25, Some((32, 32)));
            let _ = billboard(e.params.flags, &s, &view_basis);
        }
    }
    let written = map.to_bytes_as(map.version).expect("a map that reads must write");
    let (again, _) = Map::read(&written).expect("what we write must read");
    assert!(again.to_bytes_as(map.version).expect("writes") == written, "write is not stable");
});
