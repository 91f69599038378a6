n = int(raw_input())
for _ in range(n):
        # TODO
        a, b = map(int, raw_input().split())
        total = a+b
        # TODO
        digits = 1
        while total>=10:
                total //= 10
                digits += 1
        print(digits)
