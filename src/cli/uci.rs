use std::io;

use kibitzer::uci::{self, Output};

pub fn run() -> anyhow::Result<()> {
    uci::run(io::stdin().lock(), Output::new(io::stdout()));
    Ok(())
}
