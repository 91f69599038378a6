def solve():
        xs = input().split()
        a = int(xs[0])
        b = int(xs[1])
        for digits in range(10**9, 0, -1):
                if a%digits==0 and b%digits==0:
                        print(digits)
                        break


solve()
