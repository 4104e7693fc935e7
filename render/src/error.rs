//! What can go wrong while rendering.

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// What was found instead, and how to get an adapter ([`crate::gpu::choose_adapter`]).
    #[error("{0}")]
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
