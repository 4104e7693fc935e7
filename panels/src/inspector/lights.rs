//! The inspector's fields for lights: omni (colour, radius, intensity; a spot
//! light's cone), sun
//! (direction, colour, intensity) and hemisphere (sky and ground colours, AO).

use pebble_model::entity::{Light, limits};

use super::form::Form;

/// Returns whether a colour or checkbox changed (typed values commit through
/// `form`).
pub(super) fn light_ui(ui: &mut egui::Ui, form: &mut Form, light: &mut Light) -> bool {
    let mut changed = false;
    match light {
        Light::Omni {
            color,
            radius,
            intensity,
            shadows,
            cone,
        } => {
            changed |= ui.color_edit_button_rgb(color).changed();
            form.f32(ui, "radius", radius, &limits::LIGHT_RADIUS);
            form.f32(ui, "intensity", intensity, &limits::LIGHT_INTENSITY);
            changed |= ui.checkbox(shadows, "casts shadows").changed();
            let mut spot = cone.is_some();
            if ui
                .checkbox(
                    &mut spot,
                    "spot: a cone along the light's −Z (the bake keeps it)",
                )
                .changed()
            {
                *cone = spot.then_some(pebble_model::entity::Cone {
                    inner: 25f32.to_radians(),
                    outer: 35f32.to_radians(),
                });
                changed = true;
            }
            if let Some(c) = cone {
                form.degrees(
                    ui,
                    "inner angle",
                    &mut c.inner,
                    &limits::CONE_ANGLE,
                    "full light inside",
                );
                form.degrees(
                    ui,
                    "outer angle",
                    &mut c.outer,
                    &limits::CONE_ANGLE,
                    "none past it",
                );
            }
        }
        Light::Sun {
            direction,
            color,
            intensity,
            shadows,
        } => {
            form.vec3_note(
                ui,
                "direction",
                direction,
                &limits::DIRECTION,
                "(toward the ground)",
            );
            changed |= ui.color_edit_button_rgb(color).changed();
            form.f32(ui, "intensity", intensity, &limits::LIGHT_INTENSITY);
            changed |= ui.checkbox(shadows, "casts shadows").changed();
        }
        Light::Hemisphere {
            sky,
            ground,
            ao_strength,
            ao_radius,
        } => {
            ui.horizontal(|ui| {
                ui.label("sky");
                changed |= ui.color_edit_button_rgb(sky).changed();
                ui.label("ground");
                changed |= ui.color_edit_button_rgb(ground).changed();
            });
            form.f32(ui, "AO strength", ao_strength, &limits::AO_STRENGTH);
            form.f32(ui, "AO radius", ao_radius, &limits::AO_RADIUS);
        }
    }
    changed
}
