//! The GE's guard band, and clipping to it. The GE draws into a 4096×4096-pixel
//! space with the screen in its middle; a triangle with a vertex that projects
//! outside that space (the guard band), or that lies behind the camera, is dropped
//! whole. A wall running past the camera, or a ground plane reaching under it, then
//! vanishes where it is in plain view.
//!
//! Cutting every large triangle in the file avoided it at a price (1.3–7× the
//! triangles of real levels). A runtime instead tests each mesh's box against the
//! band once a frame; the few meshes that reach past it have their triangles tested,
//! and only triangles that cross the band are clipped to it ([`Guard::clip`]) and
//! drawn from scratch memory. Everything the camera can see lies inside the band,
//! so a triangle entirely outside one of its planes is invisible and skipped.
//!
//! The band is the pyramid from the eye through the band's edges, cut by the near
//! plane: five planes, tested in world space so the file's vertices need no
//! transform. Clipping interpolates position, UV and colour linearly (exact on a
//! planar triangle; the GE's perspective-correct interpolation then agrees with the
//! unclipped triangle's).

use crate::view::Vertex;

/// The most vertices a triangle clipped by the five planes can have.
pub const MAX_CLIPPED: usize = 8;

/// Where something lies against the band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Wholly inside: the GE draws it as it is.
    Inside,
    /// Wholly outside one plane: nothing of it can be seen.
    Outside,
    /// Across a plane: clip it (a triangle) or test its triangles (a box).
    Crossing,
}

/// The band's planes in world space: a point `p` is inside when
/// `n·p + d ≥ 0` for each `[n.x, n.y, n.z, d]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Guard {
    planes: [[f32; 4]; 5],
}

/// A camera as the band needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuardCamera {
    pub eye: [f32; 3],
    /// Unit vectors: right, up and the direction the camera looks.
    pub right: [f32; 3],
    pub up: [f32; 3],
    pub forward: [f32; 3],
    /// The near plane's distance.
    pub near: f32,
    /// The projection's x and y scale (`1 / tan(fov_x / 2)`, `1 / tan(fov_y / 2)`).
    pub scale: [f32; 2],
    /// Half the viewport in pixels (240, 136 on the PSP).
    pub half_viewport: [f32; 2],
    /// Half the band's width in pixels, from the viewport's centre (2048 on the
    /// GE), less a margin for rounding.
    pub half_band: f32,
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn plane(n: [f32; 3], through: [f32; 3]) -> [f32; 4] {
    [n[0], n[1], n[2], -dot(n, through)]
}

impl Guard {
    pub fn new(c: &GuardCamera) -> Self {
        // A view-space point (x right, y up, depth along forward) projects to
        // x · scale / depth · half_viewport pixels from the centre: inside the band
        // while |x| ≤ slope · depth.
        let slope = |k: usize| c.half_band / (c.scale[k] * c.half_viewport[k]).max(1e-6);
        let (sx, sy) = (slope(0), slope(1));
        let f = c.forward;
        let side = |axis: [f32; 3], s: f32, sign: f32| {
            // s · depth − sign · (axis · (p − eye)) ≥ 0
            let n = [
                s * f[0] - sign * axis[0],
                s * f[1] - sign * axis[1],
                s * f[2] - sign * axis[2],
            ];
            plane(n, c.eye)
        };
        let near_point = [
            c.eye[0] + f[0] * c.near,
            c.eye[1] + f[1] * c.near,
            c.eye[2] + f[2] * c.near,
        ];
        Self {
            planes: [
                plane(f, near_point),
                side(c.right, sx, 1.0),
                side(c.right, sx, -1.0),
                side(c.up, sy, 1.0),
                side(c.up, sy, -1.0),
            ],
        }
    }

    fn distance(p: &[f32; 4], x: [f32; 3]) -> f32 {
        p[0] * x[0] + p[1] * x[1] + p[2] * x[2] + p[3]
    }

    /// An axis-aligned box against the band.
    pub fn side_of_box(&self, min: [f32; 3], max: [f32; 3]) -> Side {
        let mut crossing = false;
        for p in &self.planes {
            // The corners farthest along and against the plane's normal.
            let pick = |hi: bool| -> [f32; 3] {
                core::array::from_fn(|k| if (p[k] >= 0.0) == hi { max[k] } else { min[k] })
            };
            if Self::distance(p, pick(true)) < 0.0 {
                return Side::Outside;
            }
            if Self::distance(p, pick(false)) < 0.0 {
                crossing = true;
            }
        }
        if crossing {
            Side::Crossing
        } else {
            Side::Inside
        }
    }

    /// A triangle's corners against the band.
    pub fn side_of_triangle(&self, corners: [[f32; 3]; 3]) -> Side {
        let mut crossing = false;
        for p in &self.planes {
            let d = corners.map(|c| Self::distance(p, c));
            if d.iter().all(|&x| x < 0.0) {
                return Side::Outside;
            }
            if d.iter().any(|&x| x < 0.0) {
                crossing = true;
            }
        }
        if crossing {
            Side::Crossing
        } else {
            Side::Inside
        }
    }

    /// The part of `tri` inside the band, as a convex polygon in `out` (its
    /// winding kept); returns how many vertices it has (0, or 3 to
    /// [`MAX_CLIPPED`]). Fan it from `out[0]` to draw it.
    pub fn clip(&self, tri: &[Vertex; 3], out: &mut [Vertex; MAX_CLIPPED]) -> usize {
        let mut a = [Vertex::default(); MAX_CLIPPED];
        let mut n = 3;
        a[..3].copy_from_slice(tri);
        let mut b = [Vertex::default(); MAX_CLIPPED];
        for p in &self.planes {
            let mut m = 0;
            for k in 0..n {
                let (u, v) = (a[k], a[(k + 1) % n]);
                let (du, dv) = (Self::distance(p, u.pos), Self::distance(p, v.pos));
                if du >= 0.0 && m < MAX_CLIPPED {
                    b[m] = u;
                    m += 1;
                }
                if ((du >= 0.0) != (dv >= 0.0)) && m < MAX_CLIPPED {
                    b[m] = lerp(&u, &v, du / (du - dv));
                    m += 1;
                }
            }
            n = m;
            a = b;
            if n < 3 {
                return 0;
            }
        }
        out[..n].copy_from_slice(&a[..n]);
        n
    }
}

fn lerp(u: &Vertex, v: &Vertex, t: f32) -> Vertex {
    let t = t.clamp(0.0, 1.0);
    let mix = |x: f32, y: f32| x + (y - x) * t;
    Vertex {
        uv: [mix(u.uv[0], v.uv[0]), mix(u.uv[1], v.uv[1])],
        color: crate::view::lerp_color(u.color, v.color, t),
        pos: [
            mix(u.pos[0], v.pos[0]),
            mix(u.pos[1], v.pos[1]),
            mix(u.pos[2], v.pos[2]),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera at the origin looking down −Z, 60° vertical field of view on the
    /// PSP's 480×272 screen.
    fn camera() -> GuardCamera {
        let sy = 1.0 / libm::tanf(30f32.to_radians());
        GuardCamera {
            eye: [0.0; 3],
            right: [1.0, 0.0, 0.0],
            up: [0.0, 1.0, 0.0],
            forward: [0.0, 0.0, -1.0],
            near: 0.08,
            scale: [sy / (16.0 / 9.0), sy],
            half_viewport: [240.0, 136.0],
            half_band: 2000.0,
        }
    }

    /// Where a world point lands on the GE's 4096-pixel space (None: behind the
    /// near plane), as the GE projects it.
    fn project(c: &GuardCamera, p: [f32; 3]) -> Option<[f32; 2]> {
        let depth = dot(p, c.forward);
        (depth >= c.near * 0.999).then(|| {
            [
                2048.0 + dot(p, c.right) * c.scale[0] / depth * c.half_viewport[0],
                2048.0 - dot(p, c.up) * c.scale[1] / depth * c.half_viewport[1],
            ]
        })
    }

    fn v(pos: [f32; 3]) -> Vertex {
        Vertex {
            uv: [pos[0], pos[2]],
            color: 0xFF00_80FF,
            pos,
        }
    }

    fn area2(p: [[f32; 3]; 3]) -> [f32; 3] {
        let (a, b) = (
            [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]],
            [p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]],
        );
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }

    #[test]
    fn a_ground_under_the_camera_is_clipped_into_the_band_and_keeps_its_winding() {
        let c = camera();
        let g = Guard::new(&c);
        // A 400 m ground triangle 1.6 m below the eye, reaching behind it.
        let tri = [
            v([-200.0, -1.6, 100.0]),
            v([200.0, -1.6, 100.0]),
            v([0.0, -1.6, -300.0]),
        ];
        // Some corner projects outside the band (or behind the camera): the GE drops it.
        assert!(tri.iter().any(|t| {
            project(&c, t.pos)
                .is_none_or(|[x, y]| !(0.0..4096.0).contains(&x) || !(0.0..4096.0).contains(&y))
        }));
        assert_eq!(g.side_of_triangle(tri.map(|t| t.pos)), Side::Crossing);
        let mut out = [Vertex::default(); MAX_CLIPPED];
        let n = g.clip(&tri, &mut out);
        assert!(n >= 3, "something of the ground is in view");
        let normal = area2(tri.map(|t| t.pos));
        for v in &out[..n] {
            let [x, y] = project(&c, v.pos).expect("in front of the near plane");
            assert!(
                (0.0..4096.0).contains(&x) && (0.0..4096.0).contains(&y),
                "{x} {y}"
            );
            // Still on the ground, its UV where the ground's mapping puts it.
            assert!((v.pos[1] + 1.6).abs() < 1e-3);
            assert!((v.uv[0] - v.pos[0]).abs() < 1e-2);
            assert!((v.uv[1] - v.pos[2]).abs() < 1e-2);
        }
        for k in 1..n - 1 {
            let a = area2([out[0].pos, out[k].pos, out[k + 1].pos]);
            assert!(
                dot(a, normal) >= 0.0,
                "the fan keeps the triangle's winding"
            );
        }
        // The point straight below the eye 5 m ahead is drawn: inside the polygon.
        let probe = [0.0, -1.6, -5.0];
        let inside = (1..n - 1).any(|k| {
            let t = [out[0].pos, out[k].pos, out[k + 1].pos];
            (0..3).all(|e| {
                let s = area2([t[e], t[(e + 1) % 3], probe]);
                dot(s, normal) >= -1e-3
            })
        });
        assert!(inside);
    }

    #[test]
    fn boxes_and_triangles_in_view_or_behind_are_told_apart() {
        let g = Guard::new(&camera());
        assert_eq!(
            g.side_of_box([-1.0, -1.0, -12.0], [1.0, 1.0, -10.0]),
            Side::Inside
        );
        assert_eq!(
            g.side_of_box([-1.0, -1.0, 5.0], [1.0, 1.0, 10.0]),
            Side::Outside
        );
        assert_eq!(
            g.side_of_box([-50.0, -2.0, -50.0], [50.0, 0.0, 50.0]),
            Side::Crossing
        );
        let ahead = [[0.0, 0.0, -10.0], [1.0, 0.0, -10.0], [0.0, 1.0, -10.0]];
        assert_eq!(g.side_of_triangle(ahead), Side::Inside);
        let behind = ahead.map(|p| [p[0], p[1], -p[2]]);
        assert_eq!(g.side_of_triangle(behind), Side::Outside);
        let mut out = [Vertex::default(); MAX_CLIPPED];
        assert_eq!(g.clip(&behind.map(v), &mut out), 0);
        assert_eq!(
            g.clip(&ahead.map(v), &mut out),
            3,
            "a triangle inside comes out whole"
        );
        assert_eq!(out[..3], ahead.map(v));
    }

    #[test]
    fn colours_are_interpolated_per_channel() {
        let a = Vertex {
            uv: [0.0, 0.0],
            color: 0xFF00_00FF,
            pos: [0.0; 3],
        };
        let b = Vertex {
            uv: [1.0, 2.0],
            color: 0x00FF_FF00,
            pos: [2.0; 3],
        };
        let m = lerp(&a, &b, 0.5);
        assert_eq!(m.color, 0x8080_8080);
        assert_eq!(m.uv, [0.5, 1.0]);
        assert_eq!(m.pos, [1.0; 3]);
    }
}
