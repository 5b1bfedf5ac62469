//! Shell completions and the man page, generated from the command-line definitions so they
//! never drift from them.

use std::path::PathBuf;

use anyhow::Context;
use clap::CommandFactory;
use clap_complete::Shell;

#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: Shell,
}

/// Writes the completion script for `shell` to standard output.
pub fn completions<C: CommandFactory>(args: CompletionsArgs) -> anyhow::Result<()> {
    let mut command = C::command();
    let name = command.get_name().to_owned();
    clap_complete::generate(args.shell, &mut command, name, &mut std::io::stdout());
    Ok(())
}

#[derive(clap::Args)]
pub struct ManArgs {
    /// Write kibitzer.1 and a page per subcommand (kibitzer-play.1...) into this folder
    /// instead of printing the main page.
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// The man page (roff): the main one to standard output, or every page into a folder.
pub fn man<C: CommandFactory>(args: ManArgs) -> anyhow::Result<()> {
    let command = C::command();
    let Some(dir) = args.dir else {
        clap_mangen::Man::new(command).render(&mut std::io::stdout().lock())?;
        return Ok(());
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = command.get_name().to_owned();
    let mut pages = vec![(name.clone(), command.clone())];
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let page = format!("{name}-{}", sub.get_name());
        let sub = sub
            .clone()
            .display_name(page.clone())
            .bin_name(format!("{name} {}", sub.get_name()));
        pages.push((page, sub));
    }
    for (page, command) in pages {
        let mut roff = Vec::new();
        clap_mangen::Man::new(command)
            .title(page.clone())
            .render(&mut roff)?;
        let path = dir.join(format!("{page}.1"));
        kibitzer::game::save_atomic(&path, &roff)
            .with_context(|| format!("writing {}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(())
}
