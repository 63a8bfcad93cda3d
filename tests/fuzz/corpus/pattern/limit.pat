pattern r
  kind control
  repeat 100000
    repeat 100000
      forward 1
    end
  end
end
