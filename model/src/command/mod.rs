//! Undoable commands: every change to a scene is one of these. One file per kind.
//!
//! A command captures what it needs to revert when it is applied, so the same
//! object can be applied, reverted and re-applied (redo) any number of times.
//! Commands that create entities or materials allocate their ids on the first apply
//! and reuse them on redo, so later commands that refer to them stay valid.

mod add_entities;
mod add_material;
mod apply_material;
mod apply_scroll;
mod assign_material;
mod duplicate;
mod edit_mesh;
mod group;
mod paste;
mod patch;
mod remove_entities;
mod remove_materials;
mod reparent;
mod select;
mod set_entity;
mod set_face_uvs;
mod set_field_values;
mod set_layers;
mod set_material;
mod set_primitive;
mod set_settings;
mod set_transforms;
mod ungroup;

pub use add_entities::AddEntities;
pub use add_material::AddMaterial;
pub use apply_material::{ApplyMaterial, MaterialChoice};
pub use apply_scroll::ApplyScroll;
pub use assign_material::AssignMaterial;
pub use duplicate::Duplicate;
pub use edit_mesh::EditMesh;
pub use group::Group;
pub use paste::Paste;
pub use patch::{Fresh, Patch};
pub use remove_entities::RemoveEntities;
pub use remove_materials::RemoveMaterials;
pub use reparent::Reparent;
pub use select::Select;
pub use set_entity::SetEntity;
pub use set_face_uvs::{FaceUvs, SetFaceUvs};
pub use set_field_values::SetFieldValues;
pub use set_layers::SetLayers;
pub use set_material::SetMaterial;
pub use set_primitive::SetPrimitive;
pub use set_settings::SetSettings;
pub use set_transforms::SetTransforms;
pub use ungroup::Ungroup;

mod undoable;
pub(crate) use undoable::mesh_faces;
pub use undoable::{Command, CommandError, CommandGroup, Joined, Steps};
