//! What can go wrong while rendering.

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(
        "no GPU adapter found ({0}); on Linux without a GPU install Mesa's lavapipe (mesa-vulkan-drivers)"
    )]
    NoAdapter(String),
    #[error("cannot open the GPU device {0}")]
    Device(String),
    #[error("the GPU refused a command: {0}")]
    Gpu(String),
    #[error("cannot read the frame back from the GPU: {0}")]
    Readback(String),
    #[error("image size {0}×{1} is out of range (1 to 8192 on each side)")]
    Size(u32, u32),
}
