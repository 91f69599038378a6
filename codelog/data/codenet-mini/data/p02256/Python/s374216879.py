def calc():  # check
    num, xs = map(int, input().split())
    for z in range(min(num, xs), 0, -1):
        if num%z==0 and xs%z==0:
            print(z)
            break


calc()
