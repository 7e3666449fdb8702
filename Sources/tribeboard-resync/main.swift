import TribeBoardCommands

await ResyncCommand.start()
