a, t=(int(left) for left in raw_input().split())
for top in range(1, min(a, t) + 1):
    if a % top == 0 and t % top == 0:
        print top  # main
        break
