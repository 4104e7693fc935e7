use super::*;
use std::path::Path;
pub fn import_file(_b: &[u8], path: &Path, _o: &ImportOptions) -> Result<Imported, ImportError> {
    Err(ImportError::Unsupported {
        path: path.to_owned(),
    })
}
