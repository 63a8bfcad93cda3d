pattern p
  kind control
  heading 400
  forward 1
end
