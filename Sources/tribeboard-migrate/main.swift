import TribeBoardCommands

await MigrateCommand.start()
