def gcd(X, Y):
    return X if Y == 0 else gcd(Y, X % Y)
def main():
    nums=raw_input().split()
    A, B=int(nums[1]), int(nums[2])
    print gcd(A, B)
main()
