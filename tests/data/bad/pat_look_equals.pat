pattern p
  kind control
  forward 2
  look=3s
end
