"""The prompt texts (the .txt files beside this one; edit them here). pyproject.toml ships this
folder inside the package as tatlock.prompt_texts, so an installed tatlock finds them anywhere."""
