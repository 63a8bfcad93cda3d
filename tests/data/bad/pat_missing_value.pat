pattern p
  kind control
  forward
end
