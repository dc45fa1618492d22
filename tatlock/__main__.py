from tatlock.cli import entry_point

entry_point()
