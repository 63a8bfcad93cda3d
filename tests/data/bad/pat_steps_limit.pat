pattern p
  kind control
  forward 65537
end
