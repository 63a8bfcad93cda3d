pattern p
  kind control
  repeat 2
    forward 1
pattern q
