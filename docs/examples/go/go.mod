module example.com/szczerbakvectors

go 1.19
