def gcd(x, y):
    if y == 0:
        return x
    return gcd(y, x % y)


def main():
    # init
    nums = input().split()
    a, b = int(nums[1]), int(nums[2])
    print(gcd(a, b))


# print answer
main()
