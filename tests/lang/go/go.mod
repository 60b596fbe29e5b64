module example.com/tvmffi-langtest

go 1.21
