use std::io;

use kibitzer::xboard::{self, Output};

pub fn run() -> anyhow::Result<()> {
    xboard::run(io::stdin().lock(), Output::new(io::stdout()));
    Ok(())
}
