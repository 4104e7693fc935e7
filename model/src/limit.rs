//! The values each numeric property accepts ([`Limit`]) and the limits every
//! entity kind and primitive shares ([`limits`]): the model's checks and the
//! editor's numeric fields read the same numbers.

/// The values one numeric property accepts. The model's checks and the editor's
/// numeric fields share these, so what the inspector offers is what a command takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limit {
    pub min: f64,
    pub max: f64,
    /// Written after a value, with its own leading space if it takes one (" m", "°").
    pub unit: &'static str,
    /// Whole numbers only (counts, sides, seeds).
    pub whole: bool,
    /// The size of the value must lie in `min..=max`, of either sign (a scale: a
    /// negative one mirrors, zero would collapse the entity).
    pub either_sign: bool,
}

/// A number in a message: as short as it reads ("0.01", "500", "NaN").
fn show(v: f64) -> String {
    if v.is_finite() && v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

impl Limit {
    pub const fn new(min: f64, max: f64, unit: &'static str) -> Self {
        Self {
            min,
            max,
            unit,
            whole: false,
            either_sign: false,
        }
    }

    /// Whole numbers from `min` to `max`.
    pub const fn whole(min: f64, max: f64, unit: &'static str) -> Self {
        Self {
            whole: true,
            ..Self::new(min, max, unit)
        }
    }

    /// The same range for the size of the value, either sign.
    pub const fn either_sign(self) -> Self {
        Self {
            either_sign: true,
            ..self
        }
    }

    /// "between 0.01 and 500 m".
    pub fn range_text(&self) -> String {
        let (lo, hi, u) = (show(self.min), show(self.max), self.unit);
        if self.either_sign {
            format!("between {lo} and {hi}{u} or between -{hi} and -{lo}{u}")
        } else {
            format!("between {lo} and {hi}{u}")
        }
    }

    /// `Ok` when `v` is accepted, or why not ("must be between 0.01 and 500 m").
    pub fn check(&self, v: f64) -> Result<(), String> {
        self.check_within(v, 0.0)
    }

    /// [`Limit::check`] for a value stored as `f32`, perhaps converted (radians to
    /// degrees): the bounds widen by a millionth, far under any meaningful step.
    pub fn check_stored(&self, v: f64) -> Result<(), String> {
        self.check_within(v, 1e-6)
    }

    fn check_within(&self, v: f64, tolerance: f64) -> Result<(), String> {
        let whole = if self.whole { "a whole number " } else { "" };
        if !v.is_finite() {
            return Err(format!(
                "must be a finite {}{}",
                if self.whole {
                    "whole number "
                } else {
                    "number "
                },
                self.range_text()
            ));
        }
        if self.whole && v.fract() != 0.0 {
            return Err(format!("must be {whole}{}", self.range_text()));
        }
        let size = if self.either_sign { v.abs() } else { v };
        let (lo, hi) = (
            self.min - self.min.abs() * tolerance,
            self.max + self.max.abs() * tolerance,
        );
        if size < lo || size > hi {
            return Err(format!("must be {whole}{}", self.range_text()));
        }
        Ok(())
    }

    /// `Ok`, or "`name` must be between …, got `v`" for a stored value.
    pub fn check_named(&self, name: &str, v: f64) -> Result<(), String> {
        self.check_stored(v)
            .map_err(|reason| format!("{name} {reason}, got {}", show(v)))
    }
}

/// What every numeric property accepts: a PSP map is a few hundred metres across,
/// and the emitter limits are the reference loader's own sanitising clamps
/// (`pbm::emitter::sanitize`; a test checks they agree).
pub mod limits {
    use crate::limit::Limit;

    /// Positions: entity translations and patrol waypoints.
    pub const POSITION: Limit = Limit::new(-10_000.0, 10_000.0, " m");
    /// Rotation angles typed in degrees.
    pub const ROTATION: Limit = Limit::new(-360.0, 360.0, "°");
    /// Each scale factor: never zero, at most a thousandfold either way.
    pub const SCALE: Limit = Limit::new(0.001, 1000.0, "").either_sign();
    /// Sizes of boxes, triggers, colliders and primitives' lengths.
    pub const SIZE: Limit = Limit::new(0.01, 500.0, " m");

    /// A component of a light's or emitter's direction (not all zero).
    pub const DIRECTION: Limit = Limit::new(-1.0, 1.0, "");
    /// A linear colour channel.
    pub const COLOR: Limit = Limit::new(0.0, 1.0, "");
    pub const LIGHT_RADIUS: Limit = Limit::new(0.01, 500.0, " m");
    pub const LIGHT_INTENSITY: Limit = Limit::new(0.0, 20.0, "");
    /// A spot light's half angles.
    pub const CONE_ANGLE: Limit = Limit::new(0.0, 90.0, "°");
    pub const AO_STRENGTH: Limit = Limit::new(0.0, 1.0, "");
    pub const AO_RADIUS: Limit = Limit::new(0.01, 50.0, " m");

    /// Particles of one emitter (the runtime's budget per emitter; 0 shows none).
    pub const EMITTER_COUNT: Limit =
        Limit::whole(0.0, pbm::emitter::MAX_PARTICLES_PER_EMITTER as f64, "");
    /// Flipbook columns, rows and loops.
    pub const FLIPBOOK: Limit = Limit::whole(1.0, 16.0, "");
    /// Cone half-angle, degrees (stored in radians).
    pub const SPREAD: Limit = Limit::new(0.0, 180.0, "°");
    pub const PARTICLE_SPEED: Limit = Limit::new(-200.0, 200.0, " m/s");
    pub const PARTICLE_LIFE: Limit = Limit::new(0.01, 600.0, " s");
    pub const DAMPING: Limit = Limit::new(0.0, 32.0, " /s");
    /// Each component of an emitter's gravity (the loader only needs it finite; ten
    /// g either way is more than any effect wants).
    pub const GRAVITY: Limit = Limit::new(-100.0, 100.0, " m/s²");
    pub const SPAWN_RADIUS: Limit = Limit::new(0.0, 200.0, " m");
    pub const PARTICLE_SIZE: Limit = Limit::new(0.0005, 200.0, " m");
    /// Size at the knee and at death, times the birth size.
    pub const SIZE_FACTOR: Limit = Limit::new(0.0, 64.0, "×");
    pub const ASPECT: Limit = Limit::new(0.01, 64.0, "");
    /// Where the knee sits, as a fraction of the life.
    pub const KNEE: Limit = Limit::new(0.05, 0.95, "");
    /// Birth angle, degrees (stored in radians).
    pub const PARTICLE_ANGLE: Limit = Limit::new(-360.0, 360.0, "°");
    pub const SPIN: Limit = Limit::new(-64.0, 64.0, " rad/s");
    pub const WOBBLE_AMP: Limit = Limit::new(0.0, 100.0, " m");
    pub const WOBBLE_FREQ: Limit = Limit::new(0.0, 64.0, " Hz");
    pub const SEED: Limit = Limit::whole(0.0, u32::MAX as f64, "");

    /// The player's yaw, degrees (stored in radians).
    pub const YAW: Limit = Limit::new(-360.0, 360.0, "°");
    pub const FOV: Limit = Limit::new(20.0, 120.0, "°");

    /// Balls in the pit: the PSP runtime simulates at most 64 (`pebble_play`'s
    /// `MAX_BALLS`; a test in the editor checks they agree).
    pub const BALL_COUNT: Limit = Limit::whole(0.0, 64.0, "");
    pub const BALL_RADIUS: Limit = Limit::new(0.01, 5.0, " m");
    pub const BALL_MASS: Limit = Limit::new(0.001, 1000.0, " kg");
    pub const RESTITUTION: Limit = Limit::new(0.0, 1.0, "");
    /// A corner of the ball pit's spawn box, from the entity.
    pub const SPAWN_BOX: Limit = Limit::new(-500.0, 500.0, " m");

    pub const SOUND_RADIUS: Limit = Limit::new(0.1, 500.0, " m");
    pub const VOLUME: Limit = Limit::new(0.0, 1.0, "");
    pub const PATROL_RADIUS: Limit = Limit::new(0.01, 10.0, " m");
    pub const PATROL_SPEED: Limit = Limit::new(0.0, 50.0, " m/s");

    /// Metres per texture repeat.
    pub const TILING: Limit = Limit::new(0.01, 100.0, " m");
    /// Texture repeats per second.
    pub const UV_SCROLL: Limit = Limit::new(-100.0, 100.0, " rep/s");
    /// Where the texture starts, in repeats.
    pub const UV_OFFSET: Limit = Limit::new(-100.0, 100.0, " rep");
}
