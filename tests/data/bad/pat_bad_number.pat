pattern p
  kind control
  forward 2.5
end
